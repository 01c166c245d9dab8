/**
 * Downloads a file with progress, for the renderers (no three.js here). Signed download URLs and
 * blob: URLs alike; the caller judges the format from the bytes, never from the URL.
 */
import { ViewerError } from './viewer-error.js';
import { viewerMessages } from './viewer-messages.js';

export async function fetchBytes(
  src: string,
  signal: AbortSignal,
  onProgress: (loaded: number, total: number) => void,
): Promise<Uint8Array> {
  let response: Response;
  try {
    response = await fetch(src, { signal, credentials: 'same-origin' });
  } catch (err) {
    if (signal.aborted) throw signal.reason;
    throw new ViewerError('network', viewerMessages.network(err instanceof Error ? err.message : 'network error'));
  }
  if (!response.ok) {
    throw new ViewerError(`http_${response.status}`, viewerMessages.http(response.status));
  }
  const total = Number(response.headers.get('content-length') ?? 0) || 0;
  if (!response.body) return new Uint8Array(await response.arrayBuffer());
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let loaded = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.byteLength;
    onProgress(loaded, total);
  }
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(loaded);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.byteLength;
  }
  return out;
}
