/**
 * A sandbox and a proxy in front of it, each on its own real HTTP port, and helpers for tests.
 * The test `authorize` hook reads the end user from a cookie, as a site's login check would.
 */
import { createServer, type ClientRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProxy, toNodeHandler, type Proxy, type ProxyOptions } from '../../src/proxy/index.js';
import type { SandboxOptions } from '../../src/sandbox/index.js';
import { startSandbox, type Harness, type Keys } from '../sandbox/harness.js';

export const SECRET = 'test-secret-0123456789abcdef0123456789abcdef';

export interface Stack {
  sandbox: Harness;
  accountId: string;
  keys: Keys;
  proxy: Proxy;
  url: string;
  /** fetch relative to the proxy's origin (paths start with /mediakit). */
  call(path: string, init?: RequestInit): Promise<Response>;
  /** POST /mediakit/session as `user` (budget from the test cookie); returns the token. */
  login(user: string, budget?: number, capabilities?: string[]): Promise<string>;
  close(): Promise<void>;
}

export async function listen(handler: ReturnType<typeof toNodeHandler>): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => handler(req, res));
  // As the sandbox harness: no server-side idle close for a late timer to race a reused socket.
  server.keepAliveTimeout = 600_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** The test site's login check: `user`, `budget` and `caps` cookies. */
export function cookieAuthorize(request: Request) {
  const cookies = Object.fromEntries(
    (request.headers.get('cookie') ?? '')
      .split(/;\s*/)
      .filter(Boolean)
      .map((c) => c.split('=') as [string, string]),
  );
  if (!cookies['user']) return null;
  return {
    subject: decodeURIComponent(cookies['user']),
    budget: cookies['budget'] ? Number(cookies['budget']) : 1000,
    ...(cookies['caps'] ? { capabilities: cookies['caps'].split(',') as never } : {}),
  };
}

export async function startStack(
  options: { proxy?: Partial<ProxyOptions>; sandbox?: SandboxOptions; credits?: number; sandboxHarness?: Harness } = {},
): Promise<Stack> {
  const sandbox = options.sandboxHarness ?? (await startSandbox(options.sandbox));
  const account = await sandbox.account(options.credits ?? 10_000);
  const proxy = createProxy({
    upstream: sandbox.url,
    keys: account.keys,
    secret: SECRET,
    authorize: cookieAuthorize,
    log: () => {},
    ...options.proxy,
  });
  const { server, url } = await listen(toNodeHandler(proxy));
  const call = (path: string, init?: RequestInit) => fetch(url + path, init);
  return {
    sandbox,
    accountId: account.id,
    keys: account.keys,
    proxy,
    url,
    call,
    async login(user, budget = 1000, capabilities) {
      const cookie =
        `user=${encodeURIComponent(user)}; budget=${budget}` + (capabilities ? `; caps=${capabilities.join(',')}` : '');
      const r = await call('/mediakit/session', { method: 'POST', headers: { cookie } });
      if (r.status !== 200) throw new Error(`login ${r.status}: ${await r.text()}`);
      return ((await r.json()) as { data: { token: string } }).data.token;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      if (!options.sandboxHarness) await sandbox.close();
    },
  };
}

export const bearer = (token: string, extra: Record<string, string> = {}) => ({
  authorization: `Bearer ${token}`,
  ...extra,
});

export interface UpstreamCall {
  method: string;
  url: URL;
  headers: Headers;
}

/**
 * An upstream function that records each request and forwards it over HTTP to `target` (the
 * sandbox), optionally changing the answer (`answer` returns a Response to send instead).
 */
export function spyUpstream(target: string, answer?: (call: UpstreamCall) => Response | undefined) {
  const calls: UpstreamCall[] = [];
  const fetchUpstream = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const call = { method: request.method, url, headers: new Headers(request.headers) };
    calls.push(call);
    const canned = answer?.(call);
    if (canned) return canned;
    const init: RequestInit & { duplex?: 'half' } = {
      method: request.method,
      headers: request.headers,
      signal: request.signal,
    };
    if (request.body) Object.assign(init, { body: request.body, duplex: 'half' });
    return fetch(target + url.pathname + url.search, init);
  };
  return { fetch: fetchUpstream, calls };
}

/** A raw HTTP/1.1 request (no URL normalization on the way), for paths fetch would clean up. */
export async function rawRequest(
  base: string,
  target: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<{ status: number; body: string }> {
  const { request } = await import('node:http');
  const u = new URL(base);
  const req = request({ host: u.hostname, port: u.port, method, path: target, headers });
  const answer = collect(req);
  req.end();
  return answer;
}

/** The status and text body of a raw request's answer. */
export function collect(req: ClientRequest): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
  });
}

/** Polls a job through the proxy until it leaves queued/processing, advancing the sandbox clock a minute at a time. */
export async function pollUntilDone(s: Stack, path: string, token: string): Promise<Record<string, any>> {
  for (let i = 0; i < 400; i++) {
    const r = await s.call(path, { headers: bearer(token) });
    if (r.status !== 200) throw new Error(`poll ${r.status}: ${await r.text()}`);
    const body = (await r.json()) as { data: Record<string, any> };
    if (body.data['status'] !== 'queued' && body.data['status'] !== 'processing') return body.data;
    await s.sandbox.advance(60_000);
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('job did not finish');
}

export function jsonInit(token: string, body: unknown, headers: Record<string, string> = {}): RequestInit {
  return {
    method: 'POST',
    headers: bearer(token, { 'content-type': 'application/json', ...headers }),
    body: JSON.stringify(body),
  };
}

export function videoInit(token: string, video: Uint8Array, headers: Record<string, string> = {}): RequestInit {
  const form = new FormData();
  form.append('video_file', new Blob([video as Uint8Array<ArrayBuffer>], { type: 'video/mp4' }), 'walkthrough.mp4');
  return { method: 'POST', headers: bearer(token, headers), body: form };
}
