/** `#abc` or `abc` -> `#aabbcc` (what `<input type=color>` takes). */
export function hex6(colour: string): string {
  const h = colour.replace('#', '').toLowerCase();
  return '#' + (h.length === 3 ? [...h].map((c) => c + c).join('') : h);
}
