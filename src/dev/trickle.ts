/**
 * `{sandboxPath}/__dev/trickle`: one of a few files of this same server, sent slowly so a viewer's
 * loading state can be looked at (the viewers' Loading stories).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export const TRICKLE_FILES = ['/assets/DamagedHelmet.glb', '/assets/guitar.compressed.ply'];
export const TRICKLE_MAX_BYTES = 64 * 1024 * 1024;
export const TRICKLE_TIMEOUT_MS = 30_000;

export interface TrickleOptions {
  files: readonly string[];
  maxBytes: number;
  timeoutMs: number;
}

class TrickleRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function sendText(res: ServerResponse, status: number, text: string): void {
  res
    .writeHead(status, {
      'content-type': 'text/plain; charset=utf-8',
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
    })
    .end(text);
}

/**
 * Sends one of the listed files of this same server (`src`, a path) spread evenly over `seconds`
 * (1-300), with its length, so progress shows. It relays only files on its list, from this
 * server's own address, as inert bytes: a relay that took any path once served another local
 * service's page as this origin (`src=/%09/127.0.0.1:4599/x`: the URL parser drops the tab).
 */
export async function trickle(req: IncomingMessage, res: ServerResponse, options: TrickleOptions): Promise<void> {
  const query = new URL(req.url ?? '/', 'http://dev').searchParams;
  const src = query.get('src') ?? '';
  const seconds = Number(query.get('seconds') ?? 30);
  // From this server's own address (never the Host header, which the client chooses).
  const { localAddress = '127.0.0.1', localPort } = req.socket;
  const self = `http://${localAddress.includes(':') ? `[${localAddress}]` : localAddress}:${localPort}`;
  // Parse first and judge what the parser made of it; control characters are refused outright,
  // since the parser silently drops tabs and newlines.
  let target: URL | undefined;
  try {
    target = /[\x00-\x1f\x7f]/.test(src) || !src.startsWith('/') ? undefined : new URL(src, self);
  } catch {
    target = undefined;
  }
  if (
    !target ||
    target.origin !== self ||
    !options.files.includes(target.pathname) ||
    !(seconds >= 1 && seconds <= 300)
  ) {
    return sendText(
      res,
      400,
      `trickle needs src, a path on this server from its list (${options.files.join(', ') || 'none: set trickleFiles'}), and seconds, 1 to 300.`,
    );
  }
  const stop = new AbortController();
  const onClose = () => stop.abort(new TrickleRefusal(499, 'the client went away'));
  res.on('close', onClose);
  const timer = setTimeout(
    () =>
      stop.abort(
        new TrickleRefusal(504, `${target.pathname} did not arrive within ${options.timeoutMs} ms from this server.`),
      ),
    options.timeoutMs,
  );
  let bytes: Uint8Array;
  try {
    const upstream = await fetch(new URL(target.pathname, self), { signal: stop.signal, redirect: 'error' });
    if (!upstream.ok) {
      await upstream.body?.cancel();
      throw new TrickleRefusal(
        upstream.status === 404 ? 404 : 502,
        `${target.pathname} answered ${upstream.status} on this server.`,
      );
    }
    const tooBig = new TrickleRefusal(
      502,
      `${target.pathname} is larger than ${options.maxBytes} bytes, the most trickle relays (trickleMaxBytes).`,
    );
    if (Number(upstream.headers.get('content-length') ?? 0) > options.maxBytes) {
      stop.abort(tooBig);
      throw tooBig;
    }
    // Read up to the cap and no further: a bigger body is never held whole.
    const parts: Uint8Array[] = [];
    let size = 0;
    const reader = upstream.body!.getReader();
    for (let part = await reader.read(); !part.done; part = await reader.read()) {
      const chunk = part.value;
      size += chunk.byteLength;
      if (size > options.maxBytes) {
        stop.abort(tooBig);
        throw tooBig;
      }
      parts.push(chunk);
    }
    bytes = new Uint8Array(Buffer.concat(parts));
  } catch (err) {
    clearTimeout(timer);
    const refusal =
      err instanceof TrickleRefusal
        ? err
        : stop.signal.reason instanceof TrickleRefusal
          ? stop.signal.reason
          : new TrickleRefusal(502, `${target.pathname} could not be read from this server.`);
    if (!res.headersSent && !res.destroyed) sendText(res, refusal.status, refusal.message);
    return;
  }
  clearTimeout(timer);
  // The whole reply, a slow reader included, ends within the time asked plus the same margin.
  const deadline = setTimeout(() => res.destroy(), seconds * 1000 + options.timeoutMs);
  try {
    // Inert bytes whatever the file is: never a page that runs as this origin.
    res.writeHead(200, {
      'content-type': 'application/octet-stream',
      'x-content-type-options': 'nosniff',
      'content-security-policy': 'sandbox',
      'content-length': String(bytes.length),
      'cache-control': 'no-store',
    });
    const steps = seconds * 4;
    const chunk = Math.max(1, Math.ceil(bytes.length / steps));
    for (let at = 0; at < bytes.length && !stop.signal.aborted; at += chunk) {
      res.write(bytes.subarray(at, at + chunk));
      await new Promise((r) => setTimeout(r, 250));
    }
    res.end();
  } finally {
    clearTimeout(deadline);
    res.off('close', onClose);
  }
}
