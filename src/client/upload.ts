/**
 * Request bodies with upload progress. fetch() reports no upload progress, and streaming request
 * bodies need HTTP/2 in Chromium, so bodies go through XMLHttpRequest, whose answer is turned back
 * into a standard Response for one code path.
 */
import type { UploadProgress } from '../events/upload-progressed.js';

/** The XHR failed without an HTTP answer (offline, reset, CORS). */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
}

export interface XhrInit {
  method: string;
  headers: Record<string, string>;
  body: XMLHttpRequestBodyInit | null;
  signal?: AbortSignal | undefined;
  onProgress?: ((p: UploadProgress) => void) | undefined;
  withCredentials?: boolean;
}

/** Rate smoothing: each sample counts this much against the running average. */
const SMOOTHING = 0.3;

export function xhrFetch(url: string, init: XhrInit): Promise<Response> {
  return new Promise((resolve, reject) => {
    const signal = init.signal;
    if (signal?.aborted) return reject(signal.reason);
    const xhr = new XMLHttpRequest();
    xhr.open(init.method, url);
    xhr.responseType = 'blob';
    xhr.withCredentials = init.withCredentials ?? false;
    for (const [name, value] of Object.entries(init.headers)) xhr.setRequestHeader(name, value);
    const onAbort = () => xhr.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const cleanup = () => signal?.removeEventListener('abort', onAbort);

    if (init.onProgress) {
      const report = init.onProgress;
      let last = { t: performance.now(), loaded: 0 };
      let rate = 0;
      xhr.upload.onprogress = (e) => {
        const t = performance.now();
        const dt = (t - last.t) / 1000;
        if (dt > 0.05) {
          const sample = (e.loaded - last.loaded) / dt;
          rate = rate === 0 ? sample : rate * (1 - SMOOTHING) + sample * SMOOTHING;
          last = { t, loaded: e.loaded };
        }
        const total = e.lengthComputable ? e.total : e.loaded;
        report({
          loaded: e.loaded,
          total,
          bytesPerSecond: Math.round(rate),
          secondsLeft: rate > 0 ? Math.max(0, (total - e.loaded) / rate) : undefined,
        });
      };
    }
    xhr.onload = () => {
      cleanup();
      const headers = new Headers();
      for (const line of xhr
        .getAllResponseHeaders()
        .trim()
        .split(/[\r\n]+/)) {
        const i = line.indexOf(':');
        if (i > 0) headers.append(line.slice(0, i).trim(), line.slice(i + 1).trim());
      }
      resolve(
        new Response(xhr.status === 204 ? null : (xhr.response as Blob), {
          status: xhr.status,
          statusText: xhr.statusText,
          headers,
        }),
      );
    };
    xhr.onerror = () => (cleanup(), reject(new NetworkError('The connection to the server failed.')));
    xhr.ontimeout = xhr.onerror;
    xhr.onabort = () => (
      cleanup(),
      reject(signal?.reason ?? new DOMException('The upload was cancelled.', 'AbortError'))
    );
    xhr.send(init.body);
  });
}
