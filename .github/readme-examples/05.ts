// From README.md, extracted by scripts/readme.mjs: edit the README, not this file.
export {};
// The site's own monitoring: the elements only measure; where the numbers go is the site's choice.
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (!entry.name.startsWith('mediakit:')) continue;
    const [, tag, phase] = entry.name.split(':');
    navigator.sendBeacon('/my-monitoring', JSON.stringify({ tag, phase, ms: Math.round(entry.duration) }));
  }
}).observe({ type: 'measure', buffered: true });
