// A watchdog for @web/test-runner's Playwright pages (web-test-runner.config.mjs `createPage`).
// @web/test-runner sees neither a crashed page nor a frozen main thread: it waits for the test
// file until testsFinishTimeout. This says which file, and why, as it happens: a crash, a dialog,
// or a main thread that has not answered for `stallMs` (then the JavaScript stack it is stuck in,
// read by pausing the page through the Chrome DevTools Protocol). A page that still answers but
// whose file runs past `longMs` is reported too, every `longMs` after: the test mocha is in and the
// requests that have not finished (a module import that never arrives leaves mocha nowhere).

const log = (msg) => process.stderr.write(`\n[page-watch] ${msg}\n`);

/** @param {{ context: import('playwright-core').BrowserContext }} args */
export async function watchedPage({ context }, { everyMs = 15_000, stallMs = 45_000, longMs = 240_000 } = {}) {
  const page = await context.newPage();
  const born = Date.now();
  let nextLong = born + longMs;
  /** Requests not yet finished, with when they began. */
  const pending = new Map();
  page.on('request', (r) => pending.set(r, Date.now()));
  for (const done of ['requestfinished', 'requestfailed']) page.on(done, (r) => pending.delete(r));
  // The test file this page runs: the first *.test.* module it asks for.
  let file = '';
  page.on('request', (r) => {
    if (!file && /\.test\.[jt]s/.test(r.url())) file = new URL(r.url()).pathname;
  });
  const where = () => file || page.url();
  // The debugger is enabled now: a frozen main thread answers Debugger.pause (an interrupt) but not
  // Debugger.enable.
  const cdp = await context.newCDPSession(page);
  const scripts = new Map();
  cdp.on('Debugger.scriptParsed', (e) => e.url && scripts.set(e.scriptId, e.url));
  await cdp.send('Debugger.enable');
  page.on('crash', () => log(`the page crashed: ${where()}`));
  page.on('dialog', (d) => {
    log(`a ${d.type()} dialog (${JSON.stringify(d.message())}) on ${where()}: dismissed`);
    void d.dismiss().catch(() => {});
  });
  let lastAnswer = Date.now();
  let reported = false;
  const timer = setInterval(async () => {
    if (page.isClosed()) return clearInterval(timer);
    const answered = await Promise.race([
      page
        .evaluate(() => 1)
        .then(
          () => true,
          () => true,
        ),
      new Promise((r) => setTimeout(() => r(false), everyMs)),
    ]);
    if (answered) {
      lastAnswer = Date.now();
      reported = false;
      if (Date.now() > nextLong) {
        nextLong = Date.now() + longMs;
        const test = await page
          .evaluate(() => globalThis.__WTR_MOCHA_RUNNER__?.currentRunnable?.fullTitle?.() ?? '(none)')
          .catch((e) => `(unreadable: ${e})`);
        const open = [...pending]
          .filter(([, t]) => Date.now() - t > 20_000)
          .map(([r, t]) => `    ${r.method()} ${r.url()} (${Math.round((Date.now() - t) / 1000)} s)`);
        log(
          `${where()} has run ${Math.round((Date.now() - born) / 1000)} s; mocha is in: ${test}; ` +
            `requests open over 20 s: ${open.length ? '\n' + open.join('\n') : 'none'}`,
        );
      }
      return;
    }
    if (reported || Date.now() - lastAnswer < stallMs) return;
    reported = true;
    log(`the main thread has not answered for ${Math.round((Date.now() - lastAnswer) / 1000)} s: ${where()}`);
    try {
      const paused = new Promise((r) => cdp.once('Debugger.paused', r));
      await cdp.send('Debugger.pause');
      const event = await Promise.race([paused, new Promise((r) => setTimeout(() => r(undefined), 10_000))]);
      if (event) {
        const frames = event.callFrames
          .slice(0, 25)
          .map(
            (f) =>
              `    at ${f.functionName || '(anonymous)'} ${f.url || scripts.get(f.location.scriptId) || '?'}:${f.location.lineNumber + 1}:${f.location.columnNumber + 1}`,
          );
        log(`stuck in:\n${frames.join('\n')}`);
        await cdp.send('Debugger.resume').catch(() => {});
      } else log('the page did not pause in 10 s either (a renderer stuck outside JavaScript)');
    } catch (e) {
      log(`could not read its stack: ${e}`);
    }
  }, everyMs);
  page.on('close', () => clearInterval(timer));
  return page;
}
