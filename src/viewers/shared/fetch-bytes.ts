/**
 * Downloads a file with progress, for the renderers (no three.js here). Signed download URLs and
 * blob: URLs alike; the caller judges the format from the bytes, never from the URL. Either whole
 * (`fetchBytes`) or as it arrives (`fetchStream`, for a renderer that shows a file while it
 * downloads: no copy of the whole file is made).
 */
import { ViewerError } from './viewer-error.js';
import { viewerMessages } from './viewer-messages.js';

/** A download as it arrives. */
export interface ByteStream {
  /** The file's size, 0 when the server did not say. */
  total: number;
  /** The next chunk, undefined at the end. Rejects with a ViewerError when the download breaks. */
  read(): Promise<Uint8Array | undefined>;
}

export async function fetchStream(src: string, signal: AbortSignal): Promise<ByteStream> {
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
  if (!response.body) {
    let whole: Promise<ArrayBuffer> | undefined = response.arrayBuffer();
    return {
      total,
      read: async () => {
        if (!whole) return undefined;
        const bytes = new Uint8Array(await whole);
        whole = undefined;
        return bytes;
      },
    };
  }
  const reader = response.body.getReader();
  return {
    total,
    read: async () => {
      try {
        const { done, value } = await reader.read();
        return done ? undefined : value;
      } catch (err) {
        if (signal.aborted) throw signal.reason;
        throw new ViewerError('network', viewerMessages.network(err instanceof Error ? err.message : 'network error'));
      }
    },
  };
}

export async function fetchBytes(
  src: string,
  signal: AbortSignal,
  onProgress: (loaded: number, total: number) => void,
): Promise<Uint8Array> {
  const stream = await fetchStream(src, signal);
  const chunks: Uint8Array[] = [];
  let loaded = 0;
  for (let chunk = await stream.read(); chunk; chunk = await stream.read()) {
    chunks.push(chunk);
    loaded += chunk.byteLength;
    onProgress(loaded, stream.total);
  }
  return joinChunks(chunks, loaded);
}

/** The chunks as one array (the chunk itself when there is one). */
export function joinChunks(chunks: Uint8Array[], length = chunks.reduce((n, c) => n + c.byteLength, 0)): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(length);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.byteLength;
  }
  return out;
}
