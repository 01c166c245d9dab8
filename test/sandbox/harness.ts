/**
 * Starts a sandbox on a real HTTP port and gives tests small helpers around it.
 */
import { createSandbox, serve, type SandboxOptions, type LedgerEntry } from '../../src/sandbox/index.js';
import { startBrowserSandbox } from './browser-bridge.js';

/** `browser`: the sandbox under test is the browser build, in Chromium (./browser-bridge.ts). */
export const PLATFORM = process.env['MEDIAKIT_SANDBOX_PLATFORM'] === 'browser' ? 'browser' : 'node';

export interface Keys {
  video: string;
  headshot: string;
  generate: string;
  imageTools: string;
}

export interface Harness {
  url: string;
  sandbox: { fetch(request: Request): Promise<Response>; idle(): Promise<void> };
  /** fetch relative to the sandbox's URL. */
  call(path: string, init?: RequestInit): Promise<Response>;
  account(credits?: number): Promise<{ id: string; keys: Keys }>;
  /** The ledger of an account made by account(), read with one of its keys (the ledger needs one). */
  ledger(accountId: string): Promise<{ balance: number; entries: LedgerEntry[] }>;
  fault(accountId: string, kind: string, extra?: Record<string, unknown>): Promise<void>;
  advance(ms: number): Promise<void>;
  close(): Promise<void>;
}

/** A sandbox on 127.0.0.1:<free port>; call close() in an after hook. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Harness> {
  const settings: SandboxOptions = {
    speed: 1,
    artifacts: { turntableFrames: 8, turntableSize: 96, sceneColumns: 16, sceneFrames: 4 },
    ...options,
  };
  const inBrowser = PLATFORM === 'browser' ? await startBrowserSandbox(settings) : undefined;
  const sandbox = inBrowser ?? createSandbox(settings);
  const { server, url } = await serve((r) => sandbox.fetch(r), 0);
  // Idle connections stay open until close(): with Node's 5 s default, a busy machine's late timer
  // lets the server close a kept-alive socket just as the next fetch reuses it (ECONNRESET), a race
  // between client and server timers that says nothing about the sandbox.
  server.keepAliveTimeout = 600_000;
  const call = (path: string, init?: RequestInit) => fetch(url + path, init);
  const keyOf = new Map<string, string>();
  const post = async (path: string, body: unknown) => {
    const r = await call(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`);
    return r.json() as Promise<Record<string, unknown>>;
  };
  return {
    url,
    sandbox,
    call,
    async close() {
      await sandbox.idle();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await inBrowser?.close();
    },
    async account(credits = 100) {
      const body = await post('/__sandbox/accounts', { credits });
      const keys = body['keys'] as Keys;
      keyOf.set(body['account_id'] as string, keys.video);
      return { id: body['account_id'] as string, keys };
    },
    async ledger(accountId) {
      const key = keyOf.get(accountId);
      if (!key)
        throw new Error(`ledger(${accountId}): not an account this harness made, so no key to read its ledger with`);
      const r = await call(`/__sandbox/accounts/${accountId}/ledger`, { headers: { authorization: `Bearer ${key}` } });
      if (!r.ok) throw new Error(`ledger(${accountId}): ${r.status} ${await r.text()}`);
      return (await r.json()) as { balance: number; entries: LedgerEntry[] };
    },
    async fault(accountId, kind, extra = {}) {
      await post('/__sandbox/faults', { account_id: accountId, kind, ...extra });
    },
    async advance(ms) {
      await post('/__sandbox/clock', { advance_ms: ms });
    },
  };
}

export function jsonPost(key: string, body: unknown, headers: Record<string, string> = {}): RequestInit {
  return {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  };
}

export function formPost(key: string, form: FormData, headers: Record<string, string> = {}): RequestInit {
  return { method: 'POST', headers: { 'x-api-key': key, ...headers }, body: form };
}

/** Asserts the spec's error envelope and returns it. */
export async function envelope(response: Response): Promise<{ code: string; message: string }> {
  const body = (await response.json()) as { error?: { code?: unknown; message?: unknown } };
  if (
    typeof body.error?.code !== 'string' ||
    typeof body.error.message !== 'string' ||
    body.error.message.length < 10
  ) {
    throw new Error(`not an error envelope: ${JSON.stringify(body)}`);
  }
  return body.error as { code: string; message: string };
}

/** Polls until the job leaves queued/processing, advancing the clock a minute at a time. */
export async function settle(h: Harness, path: string, key: string): Promise<Record<string, any>> {
  for (let i = 0; i < 400; i++) {
    const r = await h.call(path, { headers: { 'x-api-key': key } });
    const body = (await r.json()) as { data: Record<string, any> };
    if (body.data.status !== 'queued' && body.data.status !== 'processing') return body.data;
    await h.advance(60_000);
    await h.sandbox.idle();
  }
  throw new Error('job never settled');
}
