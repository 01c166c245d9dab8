/** Reading a small body (an upstream's or a browser's JSON) with a size limit. */

/** Reads a body of at most `max` bytes as text; undefined when it is larger or breaks. */
export async function readText(body: ReadableStream<Uint8Array> | null, max: number): Promise<string | undefined> {
  if (!body) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > max) {
        void reader.cancel().catch(() => undefined);
        return undefined;
      }
      chunks.push(value);
    }
  } catch {
    return undefined;
  }
  const decoder = new TextDecoder();
  return chunks.map((c, i) => decoder.decode(c, { stream: i < chunks.length - 1 })).join('');
}

/** Reads a JSON body of at most `max` bytes; undefined when it is not JSON, too large, or breaks. */
export async function readJson(body: ReadableStream<Uint8Array> | null, max: number): Promise<unknown> {
  const text = await readText(body, max);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
