/**
 * What the demo forms show on submit: the element's value (README "Saving results") as the form
 * carries it, and the image elements' second entry, the file itself (`<name>-file`).
 */
export function showSubmitted(form: HTMLFormElement, name: string, out: Element): void {
  const data = new FormData(form);
  const json = data.get(name);
  const file = data.get(`${name}-file`);
  if (typeof json !== 'string' || !json) {
    out.textContent = `${name}: nothing yet (the form value is the result's JSON once there is one)`;
    return;
  }
  const value = JSON.parse(json) as { kind: string; status: string; asset: { url: string; bytes: number } | null };
  const kept = value.asset ? `kept at ${value.asset.url} (${value.asset.bytes} bytes)` : 'not kept';
  out.textContent =
    `${name} = { kind: ${value.kind}, status: ${value.status}, ${kept} }` +
    (file instanceof File ? ` · ${name}-file = ${file.name} (${file.type}, ${file.size} bytes)` : '');
}
