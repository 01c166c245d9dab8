/**
 * Child processes of the proxy benchmark, one server each, so the kernel's high-water mark
 * (VmHWM in /proc/<pid>/status) measures one server alone. Started with fork(); answers the
 * parent's { status } message with its memory, and prints nothing.
 *
 *   sandbox: the sandbox (the upstream of everything below), with a funded account
 *   proxy:   our proxy (createProxy + toNodeHandler) in front of UPSTREAM
 *   pipe:    a plain node:http proxy: req.pipe(http.request(upstream)), res piped back
 *   fetch:   a plain fetch proxy: fetch(upstream, { body: Readable.toWeb(req), duplex: 'half' })
 *   sink:    a bare node:http server that pipes the upload into a temporary file and answers 202
 *            (the floor for receiving an upload to disk: the sandbox bench's baseline)
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { createSandbox, serve } from '../../src/sandbox/index.js';
import { createProxy, toNodeHandler } from '../../src/proxy/index.js';

function memory(): { hwm: number; rss: number } {
  const status = readFileSync('/proc/self/status', 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
  return { hwm: kb('VmHWM'), rss: kb('VmRSS') };
}

const mode = process.argv[2];
const upstream = process.env['UPSTREAM'] ?? '';
let extra: Record<string, unknown> = {};

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<number> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

let port: number;
if (mode === 'sandbox') {
  const sandbox = createSandbox({ speed: 1, rateLimit: { limit: 1_000_000, windowMs: 60_000 } });
  port = Number(new URL((await serve((r) => sandbox.fetch(r), 0)).url).port);
  const api = (path: string, body: unknown) =>
    sandbox
      .fetch(
        new Request('http://s' + path, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
      )
      .then((r) => r.json() as Promise<Record<string, any>>);
  const account = await api('/__sandbox/accounts', { credits: 1_000_000 });
  // No reconstruction work in the background of the measurements: every video job fails (and is refunded).
  await api('/__sandbox/faults', { account_id: account['account_id'], kind: 'job_fail', count: 1_000_000 });
  extra = { keys: account['keys'] };
} else if (mode === 'proxy') {
  const keys = JSON.parse(process.env['KEYS'] ?? '{}') as Record<string, string>;
  const proxy = createProxy({
    upstream,
    keys,
    secret: 'bench-secret-0123456789abcdef0123456789abcdef',
    authorize: () => null,
    rateLimits: { create: { limit: 1e6, windowSeconds: 60 }, poll: { limit: 1e9, windowSeconds: 60 } },
  });
  port = await listen(toNodeHandler(proxy));
  extra = {
    token: await proxy.mintToken({
      subject: 'bench',
      capabilities: ['video', 'generate', 'headshot', 'imageTools'],
      budget: 1e9,
      ttlSeconds: 3600,
    }),
  };
} else if (mode === 'pipe') {
  const target = new URL(upstream);
  port = await listen((req, res) => {
    const out = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
} else if (mode === 'fetch') {
  port = await listen(async (req, res) => {
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers))
      if (typeof v === 'string' && k !== 'host' && k !== 'connection') headers.set(k, v);
    try {
      const up = await fetch(upstream + req.url, {
        method: req.method,
        headers,
        body: req.method === 'GET' ? undefined : (Readable.toWeb(req) as ReadableStream),
        duplex: 'half',
      } as RequestInit);
      res.writeHead(up.status, Object.fromEntries(up.headers));
      if (up.body) for await (const chunk of up.body as unknown as AsyncIterable<Uint8Array>) res.write(chunk);
      res.end();
    } catch {
      res.destroy();
    }
  });
} else if (mode === 'sink') {
  const { createWriteStream, mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  port = await listen((req, res) => {
    const dir = mkdtempSync(join(tmpdir(), 'mediakit-sink-'));
    const out = createWriteStream(join(dir, 'upload'));
    req.pipe(out);
    out.on('finish', () => {
      rmSync(dir, { recursive: true, force: true });
      res.writeHead(202, { 'content-type': 'application/json' }).end('{"data":{"status":"queued"}}');
    });
  });
} else {
  throw new Error(`unknown server mode ${mode}`);
}

process.on('message', (message: { status?: boolean }) => {
  if (message.status) process.send!({ memory: memory() });
});
process.send!({ port, ...extra, memory: memory() });
