/**
 * Reading a body whole, with a cap: shared by the sandbox (every request) and the proxy (the small
 * bodies it must look into). Web streams only, so it runs anywhere.
 */

/**
 * Reads `body` to the end into one array. Past `maxBytes` it cancels the rest and calls
 * `tooLarge()` (which throws); a stream that fails mid-way calls `broken()` when given.
 */
export async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  tooLarge: () => never,
  broken?: () => never,
): Promise<Uint8Array> {
  if (!body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = body.getReader();
  for (;;) {
    let step: ReadableStreamReadResult<Uint8Array>;
    try {
      step = await reader.read();
    } catch (err) {
      if (broken) broken();
      throw err;
    }
    if (step.done) break;
    total += step.value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      tooLarge();
    }
    chunks.push(step.value);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}
