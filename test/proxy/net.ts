/**
 * Real-socket helpers for the hardening tests: an HTTP upstream in front of the sandbox that
 * waits before answering (so a test can cut the browser's socket while upstream works), and raw
 * requests whose socket a test destroys mid-call.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SlowUpstream {
  url: string;
  /** Requests upstream has received whole (method and path). */
  received: { method: string; path: string }[];
  /** Resolves when upstream has received the next request whole. */
  nextReceived(): Promise<void>;
  /** Milliseconds upstream waits before forwarding a POST to the sandbox. */
  delayMs: number;
  close(): Promise<void>;
}

/** An HTTP server that reads each request whole, waits `delayMs` (POSTs), then forwards it to `target` and relays the answer. */
export async function slowUpstream(target: string, delayMs: number): Promise<SlowUpstream> {
  const waiting: (() => void)[] = [];
  const self: SlowUpstream = {
    url: '',
    received: [],
    delayMs,
    nextReceived: () => new Promise((resolve) => waiting.push(resolve)),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      self.received.push({ method: req.method ?? '', path: req.url ?? '' });
      waiting.splice(0).forEach((w) => w());
      if (req.method === 'POST') await new Promise((r) => setTimeout(r, self.delayMs));
      const headers = { ...req.headers };
      delete headers['host'];
      const out = httpRequest(target + req.url, { method: req.method, headers }, (up: IncomingMessage) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      out.on('error', () => res.destroy());
      out.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  self.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return self;
}

/** Sends a request to the proxy over a raw socket and destroys the socket once `cut` resolves (or answers if the proxy answers first). */
export function cutRequest(
  base: string,
  path: string,
  headers: Record<string, string>,
  body: Uint8Array | string,
  cut: Promise<void>,
): Promise<{ status: number; body: string } | 'cut'> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({
      host: u.hostname,
      port: u.port,
      method: 'POST',
      path,
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
    });
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', (err) => (answered ? reject(err) : resolve('cut')));
    void cut.then(() => {
      if (!answered) {
        req.destroy();
        resolve('cut');
      }
    });
    req.end(body);
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `check()` is true (polling), or fails after `ms`. */
export async function until(check: () => boolean | Promise<boolean>, ms = 10_000, what = 'condition'): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** A port nothing listens on (bound, then closed). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  await new Promise((r) => server.close(r));
  return port;
}
