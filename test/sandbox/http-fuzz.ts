/**
 * A generated-request fuzz over real HTTP against the four servers this package runs:
 *   - the session-token proxy with the memory store,
 *   - the same proxy with the Redis store,
 *   - the dev stack (a real Vite dev server with `mediakitDev()`, as `npm start` runs it),
 *   - the standalone sandbox (`src/sandbox/cli.ts`, as `npm run sandbox` runs it).
 * Each runs in a process of its own (./http-fuzz-target.ts, or the CLI), so a crash is the process
 * dying. Upstream of each proxy is a healthy sandbox, so every 5xx is a finding.
 *
 * Requests are generated with fast-check (`fc.sample` with a printed seed, so a run can be
 * repeated) and sent over raw sockets, byte for byte: methods, request targets with traversal
 * spellings, odd Host/Origin/Content-Type/Content-Length/Idempotency-Key/Authorization (valid and
 * forged tokens), bodies (truncated multipart, deep JSON, real images, random bytes), framed by
 * length or chunked, sent whole or in tiny pieces (1-11 bytes, paced), or cut off mid-body.
 *
 * Per request:
 *   - answer: a status line and headers arrived (1xx interim answers are skipped);
 *   - hang: no answer within `deadlineMs` after the last byte was written (or the cut);
 *   - crash: the connection closed or reset with no answer although the request was whole, or
 *     the target process died. A request cut off mid-body may be closed without an answer: the
 *     client went away first (counted as `cut, closed`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { SignJWT } from 'jose';
import { SECRET } from '../proxy/harness.js';

export type TargetName = 'proxy (memory store)' | 'proxy (Redis store)' | 'dev stack (Vite)' | 'sandbox (CLI)';

export interface Counts {
  requests: number;
  s2xx: number;
  s3xx: number;
  s4xx: number;
  s5xx: number;
  hangs: number;
  crashes: number;
  /** Requests cut off mid-body that the server closed without an answer (allowed). */
  cutClosed: number;
  /**
   * Requests reset while the client was still sending its body that answered when sent again: the
   * server answered early and closed, and the reset (TCP drops what the client had not read yet
   * when more body arrives at a closed socket) took the answer with it. Counted under their status too.
   */
  retried: number;
  /**
   * Requests that failed once (a 5xx, no answer in time, or closed without one) and answered
   * properly when sent again at once: a moment's load on a busy machine (a store call past its
   * timeout), not a handling bug, which fails the same way twice. Listed in the findings.
   */
  transient: number;
  /** Dev stack only: 5xx answered by Vite's own routes (not the package's), listed in the findings, not failures. */
  vite5xx: number;
  /** 2xx answers of a control plane (the sandbox's `/__sandbox/*`, the dev stack's `__sandbox`/`__dev`) to a foreign Host. */
  foreignHost: number;
  /** How many answers had each status. */
  statuses: Record<number, number>;
}

export interface Finding {
  target: TargetName;
  kind: '5xx' | 'hang' | 'crash' | "Vite's 5xx" | 'foreign Host served' | 'transient';
  detail: string;
  request: string;
}

export interface FuzzReport {
  seed: number;
  counts: Map<TargetName, Counts>;
  findings: Finding[];
  /** Lines the targets wrote to stderr (unexpected errors), first few. */
  stderr: string[];
  ms: number;
}

// ---------------------------------------------------------------------------------------------
// Targets

interface Target {
  name: TargetName;
  url: string;
  port: number;
  child: ChildProcess;
  exited: boolean;
  stderr: string[];
  seeds: Seeds;
  routes: Route[];
}

/** Values a well-behaved client of this target would hold: tokens, keys, cookies, job handles. */
interface Seeds {
  /** Valid credentials (proxy session tokens, or sandbox API keys). */
  bearers: string[];
  /** Forged or broken credentials. */
  forged: string[];
  cookies: string[];
  /** A job handle (proxy) or job id (sandbox) this target gave out, with its route family. */
  handle: string;
  /** A kept result's path or a download link's path this target gave out. */
  files: string[];
  /** Extra raw paths worth trying on this target. */
  extraPaths: string[];
  accountId: string;
}

function spawnTarget(args: string[]): Promise<{ child: ChildProcess; info: Record<string, string>; stderr: string[] }> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const stderr: string[] = [];
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (c: string) => {
    for (const line of c.split('\n')) if (line.trim() && stderr.length < 200) stderr.push(line.slice(0, 400));
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (c: string) => {
      out += c;
      const ready = /READY (\{.*\})/.exec(out);
      if (ready) resolve({ child, info: JSON.parse(ready[1]!) as Record<string, string>, stderr });
      const cli = /listening on (http:\/\/\S+)/.exec(out);
      if (cli) resolve({ child, info: { url: cli[1]! }, stderr });
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}: ${stderr.join('\n')}`)));
  });
}

async function json(r: Response): Promise<Record<string, any>> {
  const text = await r.text();
  if (!r.ok) throw new Error(`${r.url}: ${r.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as Record<string, any>;
}

const PNG_1PX = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** Tokens a forger could make from a real one: tampered signature or payload, alg none, another secret, expired. */
async function forgeries(token: string, rightSecret: string | undefined): Promise<string[]> {
  const [h, p, s] = token.split('.') as [string, string, string];
  const payload = JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as Record<string, unknown>;
  const richer = Buffer.from(JSON.stringify({ ...payload, budget: 1_000_000_000 })).toString('base64url');
  const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
  const flip = s.slice(0, -2) + (s.endsWith('AA') ? 'BB' : 'AA');
  const other = await new SignJWT({ ...payload, budget: 1_000_000_000 })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .sign(new TextEncoder().encode('another-secret-0123456789abcdef0123456789'));
  const out = [`${h}.${p}.${flip}`, `${h}.${richer}.${s}`, `${none}.${richer}.`, other, `${h}.${p}`, `${token}x`];
  if (rightSecret) {
    const { iat: _iat, exp: _exp, ...claims } = payload;
    out.push(
      await new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
        .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
        .sign(new TextEncoder().encode(rightSecret)),
    );
  }
  return out;
}

/** A text-mode 3D job through `base` (a proxy, with a token; or the sandbox, with a key). */
async function makeJob(
  url: string,
  prefix: string,
  auth: string,
  advance: () => Promise<void>,
): Promise<{ handle: string; data: Record<string, any> }> {
  const created = await json(
    await fetch(`${url}${prefix}/api/v1/3d/jobs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${auth}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify({ mode: 'text', prompt: 'a small wooden chair', quality: 'fast' }),
    }),
  );
  const handle = created['data']['job_id'] as string;
  // The clock moves the job along; its files are built in real time (a second or two at full size).
  for (let i = 0; i < 300; i++) {
    await advance();
    if (i > 0) await new Promise((r) => setTimeout(r, 100));
    const polled = await json(
      await fetch(`${url}${prefix}/api/v1/3d/jobs/${handle}`, { headers: { authorization: `Bearer ${auth}` } }),
    );
    const status = polled['data']['status'];
    if (status !== 'queued' && status !== 'processing') return { handle, data: polled['data'] };
  }
  throw new Error('seed job did not finish');
}

/** The proxy's routes under `base`, with the seeds' values. */
export { proxyRoutes as proxyRoutesForTest };
function proxyRoutes(base: string, s: Seeds): Route[] {
  const h = s.handle;
  return [
    { methods: ['POST'], path: `${base}/session`, bodies: ['empty', 'json'] },
    { methods: ['GET'], path: `${base}/session`, bodies: ['empty'] },
    { methods: ['GET'], path: `${base}/api/v1/account`, bodies: ['empty'] },
    { methods: ['POST'], path: `${base}/api/v1/video-to-3d/jobs`, bodies: ['video', 'multipart', 'json'] },
    { methods: ['GET'], path: `${base}/api/v1/video-to-3d/jobs/${h}`, bodies: ['empty'] },
    { methods: ['GET'], path: `${base}/api/app/jobs/${h}/download`, bodies: ['empty'] },
    { methods: ['POST'], path: `${base}/api/v1/3d/jobs`, bodies: ['json3d', 'multipart', 'images'] },
    { methods: ['GET'], path: `${base}/api/v1/3d/jobs/${h}`, bodies: ['empty'] },
    { methods: ['GET'], path: `${base}/api/demo/3d/jobs/${h}/model`, bodies: ['empty'] },
    { methods: ['GET'], path: `${base}/api/demo/3d/jobs/${h}/turntable`, bodies: ['empty'] },
    { methods: ['GET'], path: `${base}/api/demo/3d/jobs/${h}/reference`, bodies: ['empty'] },
    { methods: ['POST'], path: `${base}/api/v1/headshot`, bodies: ['images', 'json', 'multipart'] },
    { methods: ['POST'], path: `${base}/api/v1`, bodies: ['imageTool', 'images', 'json'] },
    // Keeping streams a body into the store: four times the weight of the other routes.
    ...Array.from({ length: 4 }, () => ({
      methods: ['POST'],
      path: `${base}/results`,
      bodies: ['keepJob', 'png', 'png', 'bytes'] as BodyKind[],
    })),
    ...s.files.map((f) => ({ methods: ['GET', 'HEAD', 'DELETE'], path: f, bodies: ['empty'] as BodyKind[] })),
    ...s.extraPaths.map((p) => ({ methods: ['GET', 'POST'], path: p, bodies: ['empty', 'json'] as BodyKind[] })),
  ];
}

export async function startProxyTarget(
  name: TargetName,
  store: 'memory' | 'redis',
  redisUrl?: string,
): Promise<Target> {
  const args = ['test/sandbox/http-fuzz-target.ts', store, ...(redisUrl ? [redisUrl] : [])];
  const { child, info, stderr } = await spawnTarget(args);
  const url = info['url']!;
  const login = async (cookie: string) =>
    (await json(await fetch(`${url}/mediakit/session`, { method: 'POST', headers: { cookie } })))['data'][
      'token'
    ] as string;
  const a = await login('user=fuzz-a; budget=1000000');
  const b = await login('user=fuzz-b; budget=5');
  const advance = async () => {
    await fetch(`${info['upstream']}/__sandbox/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"advance_ms":600000}',
    });
  };
  const job = await makeJob(url, '/mediakit', a, advance);
  const kept = await json(
    await fetch(`${url}/mediakit/results`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a}`, 'content-type': 'application/json' },
      body: JSON.stringify({ job: job.handle, file: 'glb' }),
    }),
  );
  const modelUrl = new URL(job.data['output']['model_url'] as string, url);
  const seeds: Seeds = {
    bearers: [a, b],
    forged: await forgeries(a, SECRET),
    cookies: [
      'user=fuzz-a; budget=1000000',
      'user=fuzz-c',
      'user=x; budget=NaN',
      'user=y; budget=1e309; caps=video,bogus',
    ],
    handle: job.handle,
    files: [new URL(kept['data']['url'] as string, url).pathname, modelUrl.pathname],
    extraPaths: [],
    accountId: '',
  };
  return {
    name,
    url,
    port: Number(new URL(url).port),
    child,
    exited: false,
    stderr,
    seeds,
    routes: proxyRoutes('/mediakit', seeds),
  };
}

async function startDevTarget(): Promise<Target> {
  const { child, info, stderr } = await spawnTarget(['test/sandbox/http-fuzz-target.ts', 'dev']);
  const url = info['url']!;
  const port = Number(new URL(url).port);
  // What the dev server's own page gets: the demo visitor cookie and the dev token cookie.
  const page = await fetch(`${url}/`, {
    headers: { 'sec-fetch-site': 'none', 'sec-fetch-dest': 'document', 'sec-fetch-mode': 'navigate' },
  });
  await page.arrayBuffer();
  const cookie = page.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .join('; ');
  const own = { cookie, origin: url, 'sec-fetch-site': 'same-origin' };
  const token = (await json(await fetch(`${url}/mediakit/session`, { method: 'POST', headers: own })))['data'][
    'token'
  ] as string;
  const advance = async () => {
    await fetch(`${url}/sandbox/__sandbox/clock`, {
      method: 'POST',
      headers: { ...own, 'content-type': 'application/json' },
      body: '{"advance_ms":600000}',
    });
  };
  const job = await makeJob(url, '/mediakit', token, advance);
  const kept = await json(
    await fetch(`${url}/mediakit/results`, {
      method: 'POST',
      headers: { ...own, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ job: job.handle, file: 'glb' }),
    }),
  );
  const root = info['root']!;
  const seeds: Seeds = {
    bearers: [token],
    forged: await forgeries(token, undefined),
    cookies: [
      cookie,
      cookie.split('; ')[0]!,
      `mediakit_demo=${randomUUID()}`,
      `mediakit_dev_${port}=${'0'.repeat(64)}`,
      'mediakit_demo=../../etc',
    ],
    handle: job.handle,
    files: [new URL(kept['data']['url'] as string, url).pathname],
    extraPaths: [
      '/sandbox/__sandbox/accounts',
      '/sandbox/__sandbox/clock',
      '/sandbox/__dev/account',
      '/sandbox/__dev/ledger',
      '/sandbox/__dev/trickle?src=/assets/DamagedHelmet.glb&seconds=1',
      `/sandbox/__dev/trickle?src=%2F%2F127.0.0.1%3A${port}%2Fsandbox%2F__dev%2Faccount&seconds=1`,
      '/sandbox/api/v1/account',
      '/',
      '/index.html',
      '/main.js',
      '/@vite/client',
      `/@fs${root}/index.html`,
      `/@fs${root}/.mediakit/results/.secret`,
      '/.mediakit/results/.secret',
      '/@fs/etc/passwd',
      '/@id/does-not-exist',
      '/node_modules/.vite/deps/x.js',
      '/src/index.ts',
    ],
    accountId: '',
  };
  return {
    name: 'dev stack (Vite)',
    url,
    port,
    child,
    exited: false,
    stderr,
    seeds,
    routes: proxyRoutes('/mediakit', seeds),
  };
}

export async function startSandboxTarget(): Promise<Target> {
  const { child, info, stderr } = await spawnTarget(['src/sandbox/cli.ts', '--port', '0', '--speed', '12']);
  const url = info['url']!;
  const account = await json(
    await fetch(`${url}/__sandbox/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"credits":1000000}',
    }),
  );
  const keys = account['keys'] as Record<string, string>;
  const advance = async () => {
    await fetch(`${url}/__sandbox/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"advance_ms":600000}',
    });
  };
  const job = await makeJob(url, '', keys['generate']!, advance);
  const model = new URL(job.data['output']['model_url'] as string, url);
  const seeds: Seeds = {
    bearers: Object.values(keys),
    forged: Object.values(keys).map((k) => k.slice(0, -1) + (k.endsWith('a') ? 'b' : 'a')),
    cookies: [],
    handle: job.handle,
    files: [model.pathname + model.search],
    extraPaths: [],
    accountId: account['account_id'] as string,
  };
  const routes: Route[] = [
    ...proxyRoutes('', seeds).filter((r) => !r.path.startsWith('/session') && !r.path.startsWith('/results')),
    { methods: ['POST'], path: '/__sandbox/accounts', bodies: ['control'] },
    { methods: ['POST'], path: '/__sandbox/clock', bodies: ['control'] },
    { methods: ['GET'], path: `/__sandbox/accounts/${seeds.accountId}/ledger`, bodies: ['empty'] },
  ];
  return { name: 'sandbox (CLI)', url, port: Number(new URL(url).port), child, exited: false, stderr, seeds, routes };
}

// ---------------------------------------------------------------------------------------------
// The generator

type BodyKind =
  | 'empty'
  | 'json'
  | 'json3d'
  | 'imageTool'
  | 'keepJob'
  | 'control'
  | 'video'
  | 'images'
  | 'multipart'
  | 'png'
  | 'bytes';

interface Route {
  methods: string[];
  path: string;
  bodies: BodyKind[];
}

type Framing = 'length' | 'chunked' | 'none' | 'long' | 'short' | 'bad-length' | 'both' | 'cut-chunked';

export interface FuzzRequest {
  method: string;
  target: string;
  headers: [string, string][];
  body: Uint8Array;
  framing: Framing;
  /** Sizes of the pieces the body is written in; empty: all at once. */
  pieces: number[];
  pauseMs: number;
  /** The request stops before its declared end and the client half-closes. */
  cut: boolean;
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'PROPFIND', 'get', 'FOO'];

const PATH_MUTATIONS: Record<string, (path: string, n: number) => string> = {
  dotdot: (p) => p + '/../../../../etc/passwd',
  'dotdot-in': (p) => p.replace(/^(\/[^/]*)/, '$1/..') || '/..',
  'enc-dot': (p) => p.replace(/\/(?=[^/]*$)/, '/%2e%2e/'),
  'enc-dot-upper': (p) => p.replace(/^(\/[^/]*)/, '$1/%2E%2E'),
  'double-enc': (p) => p + '/%252e%252e/%252fetc',
  'enc-slash': (p) => p.replace(/\/(?=[^/]*$)/, '%2f'),
  'enc-backslash': (p) => p.replace(/\/(?=[^/]*$)/, '%5c'),
  backslash: (p) => p.replace(/\/(?=[^/]*$)/, '\\'),
  'empty-seg': (p) => p.replace(/\/(?=[^/]*$)/, '//'),
  'dot-seg': (p) => p.replace(/\/(?=[^/]*$)/, '/./'),
  nul: (p) => p + '%00.png',
  'overlong-utf8': (p) => p.replace(/^(\/[^/]*)/, '$1/%c0%ae%c0%ae'),
  fullwidth: (p) => p + '/%EF%BC%8E%EF%BC%8E/',
  'bad-percent-html': (p) => p.replace(/\/$/, '') + '/%c0%ae.html',
  'cut-percent': (p) => p + '/%E0%A4%A',
  'raw-utf8': (p) => p + '/ünï',
  semicolon: (p) => p + ';x=1',
  query: (p, n) => p + (p.includes('?') ? '&' : '?') + `x=${n}&src=..%2f..%2f&job_id=%00`,
  fragment: (p) => p + '#frag',
  'trailing-slash': (p) => p + '/',
  upper: (p) => p.toUpperCase(),
  long: (p, n) => p + '/' + 'a'.repeat(100 + ((n * 97) % 20_000)),
  'absolute-form': (p) => 'http://evil.example' + p,
  asterisk: () => '*',
  'no-slash': (p) => p.replace(/^\/+/, ''),
  'enc-tab': (p) => p.replace(/^(\/[^/]*)/, '$1/%09'),
  'raw-tab': (p) => p.replace(/^(\/[^/]*)/, '$1/\t'),
  'last-char': (p, n) => p.slice(0, -1) + 'abcXYZ_-.~'[n % 10],
};

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON;charset="UTF-8"',
  'multipart/form-data; boundary=fuzzboundary',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'multipart/form-data; boundary="' + 'b'.repeat(200) + '"',
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/svg+xml',
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/json; charset=utf-16',
  'video/mp4',
  ';;;',
];

const IDEMPOTENCY_KEYS = [
  '',
  ' ',
  'k'.repeat(255),
  'k'.repeat(256),
  'x y',
  'ключ',
  '../../etc/passwd',
  '%00',
  '6f1c1c1e-0000-4000-8000-000000000000',
];

/** Deep JSON of `depth` levels (arrays or objects). */
function deepJson(depth: number, objects: boolean): string {
  return objects ? '{"a":'.repeat(depth) + '1' + '}'.repeat(depth) : '['.repeat(depth) + ']'.repeat(depth);
}

function multipart(
  boundary: string,
  parts: { name: string; filename?: string; type?: string; data: Uint8Array | string }[],
  close = true,
): Uint8Array {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"` +
          (part.filename !== undefined ? `; filename="${part.filename}"` : '') +
          '\r\n' +
          (part.type ? `Content-Type: ${part.type}\r\n` : '') +
          '\r\n',
      ),
    );
    chunks.push(Buffer.from(part.data));
    chunks.push(Buffer.from('\r\n'));
  }
  if (close) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

const jsonValue = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(
    Number.MAX_VALUE,
    -0,
    Number.MAX_SAFE_INTEGER + 2,
    'text',
    'image',
    'fast',
    'png',
    'glb',
    'remove_background',
  ),
  fc.array(fc.string({ maxLength: 12 }), { maxLength: 4 }),
);

const FIELDS = [
  'mode',
  'prompt',
  'images',
  'quality',
  'seed',
  'image_base64',
  'image_url',
  'style',
  'variants',
  'size',
  'format',
  'bg_color',
  'operation',
  'job',
  'file',
  'credits',
  'advance_ms',
  '__proto__',
  'constructor',
];

/** A body of `kind`: bytes and the content type a client of that route would send. */
function bodyArb(kind: BodyKind, seeds: Seeds): fc.Arbitrary<{ type: string | undefined; bytes: Uint8Array }> {
  const asJson = (a: fc.Arbitrary<unknown>) =>
    a.map((v) => ({ type: 'application/json', bytes: Buffer.from(JSON.stringify(v) ?? 'null') }));
  const dataUrl = `data:image/png;base64,${PNG_1PX.toString('base64')}`;
  const b = 'fuzzboundary';
  switch (kind) {
    case 'empty':
      return fc.constant({ type: undefined, bytes: new Uint8Array(0) });
    case 'json':
      return fc.oneof(
        asJson(fc.dictionary(fc.constantFrom(...FIELDS), jsonValue, { maxKeys: 6 })),
        asJson(fc.jsonValue({ maxDepth: 4 })),
        fc
          .tuple(fc.integer({ min: 50, max: 100_000 }), fc.boolean())
          .map(([d, o]) => ({ type: 'application/json', bytes: Buffer.from(deepJson(d, o)) })),
        fc.constantFrom('{', '{"a":', '\uFEFF{}', '{"mode":"text"', 'null', '[]', '"x"', '1e999').map((t) => ({
          type: 'application/json',
          bytes: Buffer.from(t),
        })),
      );
    case 'json3d':
      return fc.oneof(
        asJson(
          fc.record({
            mode: fc.constantFrom('text', 'image', 'x'),
            prompt: fc.oneof(fc.string({ maxLength: 40 }), fc.constant('a chair')),
            quality: fc.constantFrom('fast', 'standard', 'high', 'ultra'),
          }),
        ),
        asJson(
          fc.record({
            mode: fc.constant('image'),
            images: fc.array(
              fc.constantFrom(dataUrl, 'http://127.0.0.1/x.png', 'file:///etc/passwd', 'data:image/png;base64,AAAA'),
              { maxLength: 7 },
            ),
          }),
        ),
        bodyArb('json', seeds),
      );
    case 'imageTool':
      return fc.oneof(
        asJson(
          fc.record({
            operation: fc.constantFrom('remove_background', 'resize', 'upscale', 'crop', 'nope'),
            image_base64: fc.constantFrom(PNG_1PX.toString('base64'), 'AAAA', ''),
            format: fc.constantFrom('png', 'jpeg', 'webp', 'gif'),
          }),
        ),
        asJson(
          fc.record({
            operation: fc.constant('remove_background'),
            image_url: fc.constantFrom(
              'http://127.0.0.1:1/x.png',
              'http://169.254.169.254/latest/meta-data',
              'http://[::1]/x',
              'https://example.invalid/x.png',
            ),
          }),
        ),
      );
    case 'keepJob':
      return fc.oneof(
        asJson(
          fc.record({
            job: fc.constantFrom(seeds.handle, seeds.handle + 'x', 'a'.repeat(40)),
            file: fc.constantFrom('glb', 'mp4', 'image', 'ply', 'zip', '../x'),
          }),
        ),
        bodyArb('json', seeds),
      );
    case 'control':
      return fc.oneof(
        asJson(fc.record({ credits: fc.oneof(fc.integer(), fc.double(), fc.constant(1e300)) })),
        asJson(fc.record({ advance_ms: fc.oneof(fc.nat(), fc.double(), fc.constant(1e300), fc.constant(3e11)) })),
        bodyArb('json', seeds),
      );
    case 'video':
      return fc
        .tuple(
          fc.uint8Array({ maxLength: 2048 }),
          fc.boolean(),
          fc.constantFrom('video_file', 'file', 'video_file\r\nX: y'),
        )
        .map(([data, close, name]) => ({
          type: `multipart/form-data; boundary=${b}`,
          bytes: multipart(b, [{ name, filename: 'walk.mp4', type: 'video/mp4', data }], close),
        }));
    case 'images':
      return fc
        .tuple(
          fc.array(fc.constantFrom<Uint8Array>(PNG_1PX, PNG_1PX.subarray(0, 20), new Uint8Array(64)), {
            minLength: 1,
            maxLength: 7,
          }),
          fc.boolean(),
          fc.constantFrom('images', 'image', 'style', 'operation'),
        )
        .map(([files, close, name]) => ({
          type: `multipart/form-data; boundary=${b}`,
          bytes: multipart(
            b,
            [
              ...files.map((data, i) => ({ name, filename: `p${i}.png`, type: 'image/png', data })),
              { name: 'style', data: 'corporate' },
              { name: 'operation', data: 'remove_background' },
            ],
            close,
          ),
        }));
    case 'multipart':
      return fc
        .tuple(
          fc.array(
            fc.record({
              name: fc.string({ maxLength: 12 }),
              data: fc.uint8Array({ maxLength: 256 }),
              file: fc.boolean(),
            }),
            {
              maxLength: 5,
            },
          ),
          fc.boolean(),
          fc.nat(),
        )
        .map(([parts, close, cut]) => {
          const bytes = multipart(
            b,
            parts.map((p) => ({ name: p.name, data: p.data, ...(p.file ? { filename: 'f.bin' } : {}) })),
            close,
          );
          // Sometimes the multipart itself is truncated mid-part (the framing still says it ended).
          return {
            type: `multipart/form-data; boundary=${b}`,
            bytes: close ? bytes : bytes.subarray(0, cut % (bytes.length + 1)),
          };
        });
    case 'png':
      return fc.constantFrom(PNG_1PX, PNG_1PX.subarray(0, 16)).map((bytes) => ({ type: 'image/png', bytes }));
    case 'bytes':
      return fc.uint8Array({ maxLength: 4096 }).map((bytes) => ({ type: undefined, bytes }));
  }
}

export function requestArb(t: Target): fc.Arbitrary<FuzzRequest> {
  const { seeds } = t;
  const hostNames = [
    `127.0.0.1:${t.port}`,
    `localhost:${t.port}`,
    `[::1]:${t.port}`,
    'evil.example',
    `evil.example:${t.port}`,
    `localhost.evil.example:${t.port}`,
    `127.0.0.1.nip.io:${t.port}`,
    '',
    'localhost:99999',
    'a'.repeat(300),
    `127.0.0.1:${t.port}, evil.example`,
  ];
  const origins = [
    `http://127.0.0.1:${t.port}`,
    `http://localhost:${t.port}`,
    'null',
    'http://evil.example',
    `http://evil.example:${t.port}`,
    'http://localhost:3000',
    'ht!tp://x',
    // The Origin of a page on the Host's own name: what a DNS-rebinding page sends.
    'same-as-host',
  ];
  const auth = fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...seeds.bearers).map((v) => `Bearer ${v}`) },
    { weight: 4, arbitrary: fc.constantFrom(...seeds.forged).map((v) => `Bearer ${v}`) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        'Basic dXNlcjpwYXNz',
        'Bearer',
        'Bearer ',
        'Bearer ' + 'A'.repeat(8000),
        `bearer  ${seeds.bearers[0]}`,
        `Bearer ${seeds.bearers[0]}, Bearer x`,
        'Bearer eyJ.eyJ.x',
      ),
    },
  );
  const headerArb = fc.record(
    {
      host: fc.constantFrom(...hostNames),
      origin: fc.constantFrom(...origins),
      secFetchSite: fc.constantFrom('same-origin', 'same-site', 'cross-site', 'none'),
      authorization: auth,
      apiKey: fc.constantFrom(...seeds.bearers, ...seeds.forged.slice(0, 2), 'x'),
      cookie: seeds.cookies.length ? fc.constantFrom(...seeds.cookies) : fc.constant('a=b'),
      idempotencyKey: fc.constantFrom(...IDEMPOTENCY_KEYS),
      filename: fc.constantFrom('photo.png', '../../etc/passwd', 'a'.repeat(300), 'x.svg', '<script>.png', ''),
      range: fc.constantFrom(
        'bytes=0-10',
        'bytes=-5',
        'bytes=5-1',
        'bytes=0-0,2-3',
        'bytes=99999999999999999999-',
        'lines=1-2',
      ),
      expect: fc.constant('100-continue'),
      accept: fc.constantFrom('*/*', 'text/event-stream', 'application/json;q=0'),
      connection: fc.constantFrom('close', 'keep-alive', 'upgrade'),
      upgrade: fc.constantFrom('websocket', 'h2c'),
      contentType: fc.constantFrom(...CONTENT_TYPES),
    },
    { requiredKeys: ['host'] },
  );
  return fc
    .record({
      route: fc.constantFrom(...t.routes),
      random: fc.oneof({ weight: 9, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.webPath() }),
      methodPick: fc.oneof(
        { weight: 8, arbitrary: fc.constant(undefined) },
        { weight: 2, arbitrary: fc.constantFrom(...METHODS) },
      ),
      mutation: fc.oneof(
        { weight: 6, arbitrary: fc.constant(undefined) },
        { weight: 4, arbitrary: fc.constantFrom(...Object.keys(PATH_MUTATIONS)) },
      ),
      n: fc.nat(),
      uuid: fc.uuid(),
      headers: headerArb,
      // Whether the host is kept right (most requests) so the routes behind the gates are reached.
      rightHost: fc.boolean(),
      valid: fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
      framing: fc.oneof(
        { weight: 10, arbitrary: fc.constant<Framing>('length') },
        { weight: 4, arbitrary: fc.constant<Framing>('chunked') },
        {
          weight: 1,
          arbitrary: fc.constantFrom<Framing>('none', 'long', 'short', 'bad-length', 'both', 'cut-chunked'),
        },
      ),
      tiny: fc.oneof(
        { weight: 2, arbitrary: fc.constant<number[]>([]) },
        { weight: 1, arbitrary: fc.array(fc.integer({ min: 1, max: 11 }), { minLength: 1, maxLength: 40 }) },
      ),
      pauseMs: fc.integer({ min: 0, max: 15 }),
      badLength: fc.constantFrom('abc', '-1', '1, 2', '18446744073709551616', ' 5', '0x10'),
    })
    .chain((g) =>
      bodyArb(g.route.bodies[g.n % g.route.bodies.length]!, seeds).map((body) => {
        const method = g.methodPick ?? g.route.methods[g.n % g.route.methods.length]!;
        let target = g.random !== undefined ? (g.random.startsWith('/') ? g.random : '/' + g.random) : g.route.path;
        if (g.mutation) target = PATH_MUTATIONS[g.mutation]!(target, g.n);
        const h = g.headers;
        const headers: [string, string][] = [];
        // Most requests carry a loopback Host and a valid credential, so they pass the gates and
        // reach what is behind them; the rest spell everything the generator knows.
        headers.push(['Host', g.rightHost ? `127.0.0.1:${t.port}` : h.host]);
        if (g.valid) headers.push(['Authorization', `Bearer ${seeds.bearers[g.n % seeds.bearers.length]}`]);
        else if (h.authorization !== undefined) headers.push(['Authorization', h.authorization]);
        const host = headers[0]![1];
        for (const [name, value] of [
          // A valid request comes from the server's own page (or no page); the rest from anywhere.
          [
            'Origin',
            g.valid
              ? h.origin && `http://127.0.0.1:${t.port}`
              : h.origin === 'same-as-host'
                ? `http://${host}`
                : h.origin,
          ],
          ['Sec-Fetch-Site', g.valid ? h.secFetchSite && 'same-origin' : h.secFetchSite],
          ['X-Api-Key', h.apiKey],
          ['Cookie', g.valid && seeds.cookies.length ? seeds.cookies[0] : h.cookie],
          ['X-Mediakit-Filename', h.filename],
          ['Range', h.range],
          ['Expect', h.expect],
          ['Accept', h.accept],
          ['Connection', h.connection],
          ['Upgrade', h.upgrade],
        ] as [string, string | undefined][])
          if (value !== undefined) headers.push([name, value]);
        if (h.idempotencyKey !== undefined) headers.push(['Idempotency-Key', g.valid ? g.uuid : h.idempotencyKey]);
        const type = g.valid ? body.type : (h.contentType ?? body.type);
        if (type !== undefined) headers.push(['Content-Type', type]);
        let framing = g.framing;
        if (body.bytes.length === 0 && (framing === 'chunked' || framing === 'cut-chunked')) framing = 'length';
        const bytes = body.bytes;
        switch (framing) {
          case 'length':
            if (bytes.length > 0 || method !== 'GET') headers.push(['Content-Length', String(bytes.length)]);
            break;
          case 'chunked':
          case 'cut-chunked':
            headers.push(['Transfer-Encoding', 'chunked']);
            break;
          case 'long':
            headers.push(['Content-Length', String(bytes.length + 1 + (g.n % 1000))]);
            break;
          case 'short':
            headers.push(['Content-Length', String(Math.floor(bytes.length / 2))]);
            break;
          case 'bad-length':
            headers.push(['Content-Length', g.badLength]);
            break;
          case 'both':
            headers.push(['Content-Length', String(bytes.length)], ['Transfer-Encoding', 'chunked']);
            break;
          case 'none':
            break;
        }
        return {
          method,
          target,
          headers,
          body: framing === 'none' ? new Uint8Array(0) : bytes,
          framing,
          pieces: g.tiny,
          pauseMs: g.pauseMs,
          cut: framing === 'long' || framing === 'cut-chunked',
        };
      }),
    );
}

// ---------------------------------------------------------------------------------------------
// Sending

type Outcome =
  | { kind: 'answer'; status: number }
  | { kind: 'hang' }
  | { kind: 'closed'; error: string | undefined; midBody: boolean };

/**
 * `bytes` cut into the sizes in `pieces` (at most 40 tiny pieces, then the rest in one), or whole:
 * a network may split a body anywhere, and the first pieces are the ones a reader trips over.
 */
function split(bytes: Uint8Array, pieces: number[]): Uint8Array[] {
  if (bytes.length === 0) return [];
  const out: Uint8Array[] = [];
  let at = 0;
  for (const size of pieces) {
    if (at >= bytes.length) break;
    out.push(bytes.subarray(at, at + size));
    at += size;
  }
  if (at < bytes.length) out.push(bytes.subarray(at));
  return out;
}

/** The body in chunked transfer coding, one chunk per piece; `end`: with the last, empty chunk. */
function chunked(body: Uint8Array, pieces: number[], end: boolean): Uint8Array[] {
  const out = split(body, pieces).map((piece) =>
    Buffer.concat([Buffer.from(piece.length.toString(16) + '\r\n'), piece, Buffer.from('\r\n')]),
  );
  if (end) out.push(Buffer.from('0\r\n\r\n'));
  return out;
}

export function describeRequest(r: FuzzRequest): string {
  const head = `${r.method} ${r.target.slice(0, 160)}${r.target.length > 160 ? '…' : ''}`;
  const headers = r.headers.map(([k, v]) => `${k}: ${v.length > 80 ? v.slice(0, 80) + '…' : v}`).join(' | ');
  const body = Buffer.from(r.body.subarray(0, 60))
    .toString('latin1')
    .replace(/[^\x20-\x7e]/g, '.');
  return `${head} | ${headers} | framing=${r.framing}${r.cut ? ' (cut)' : ''} pieces=${r.pieces.length ? r.pieces.slice(0, 6).join(',') + '…' : 'whole'} body(${r.body.length})=${body}`;
}

/** Sends `r` over a fresh socket byte for byte and waits for the status line. */
export function send(port: number, r: FuzzRequest, deadlineMs: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, noDelay: true, allowHalfOpen: true });
    let received = Buffer.alloc(0);
    let done = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (o: Outcome) => {
      if (done) return;
      done = true;
      if (timer) clearTimeout(timer);
      socket.destroy();
      resolve(o);
    };
    socket.on('data', (c: Buffer) => {
      received = Buffer.concat([received, c]);
      // Skip interim 1xx answers (100 Continue); the first final status line is the answer.
      for (;;) {
        const m = /^HTTP\/1\.[01] (\d{3})[^\r\n]*\r\n/.exec(received.toString('latin1', 0, 64));
        if (!m) return;
        const end = received.indexOf('\r\n\r\n');
        if (end < 0) return;
        const status = Number(m[1]);
        if (status >= 100 && status < 200 && status !== 101) {
          received = received.subarray(end + 4);
          continue;
        }
        finish({ kind: 'answer', status });
        return;
      }
    });
    // A write into a connection the server already answered and closed fails (EPIPE, ECONNRESET);
    // its answer may still be in flight, so the outcome is decided at 'close', after every 'data'.
    let error: string | undefined;
    let sent = false;
    let ended = false;
    socket.on('error', (err: NodeJS.ErrnoException) => (error ??= err.code ?? err.message));
    socket.on('close', () => finish({ kind: 'closed', error, midBody: !sent || error === 'EPIPE' }));
    // The server ended its side without an answer (the client's own side stays open: allowHalfOpen).
    socket.on('end', () => {
      ended = true;
      finish({ kind: 'closed', error: error ?? 'server ended', midBody: !sent || error === 'EPIPE' });
    });
    socket.once('connect', async () => {
      const head = Buffer.from(
        `${r.method} ${r.target} HTTP/1.1\r\n${r.headers.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`,
        'utf8',
      );
      const isChunked = r.framing === 'chunked' || r.framing === 'cut-chunked' || r.framing === 'both';
      const pieces = isChunked ? chunked(r.body, r.pieces, r.framing !== 'cut-chunked') : split(r.body, r.pieces);
      // A request sent whole is one write, as most clients send a small request. Tiny pieces go on
      // the wire one by one, paced, so the server reads them as separate chunks; once the server
      // has said anything, the client stops sending (as a browser does).
      socket.write(r.pieces.length ? head : Buffer.concat([head, ...pieces]));
      for (const piece of r.pieces.length ? pieces : []) {
        if (done) return;
        if (r.pieces.length) await new Promise((res) => setTimeout(res, r.pauseMs));
        if (done || ended || received.length > 0) return;
        socket.write(piece);
      }
      sent = true;
      if (done) return;
      if (r.cut) socket.end();
      timer = setTimeout(() => finish({ kind: 'hang' }), deadlineMs);
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Running

/** Whether `path` (raw, undecoded) names a control-plane route of target `t`. */
function controlPlane(t: Target, path: string): boolean {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // Not decodable: judged as sent.
  }
  return t.name === 'sandbox (CLI)'
    ? /^\/+__sandbox(\/|$)/.test(decoded)
    : t.name === 'dev stack (Vite)' && /^\/+sandbox\/+__(sandbox|dev)(\/|$)/.test(decoded);
}

/** Whether the request's Host names another machine (a rebinding page's own name). */
function foreign(r: FuzzRequest): boolean {
  const host = r.headers.find(([k]) => k === 'Host')?.[1] ?? '';
  return /evil\.example|nip\.io/.test(host);
}

function emptyCounts(): Counts {
  return {
    requests: 0,
    s2xx: 0,
    s3xx: 0,
    s4xx: 0,
    s5xx: 0,
    hangs: 0,
    crashes: 0,
    cutClosed: 0,
    retried: 0,
    transient: 0,
    vite5xx: 0,
    foreignHost: 0,
    statuses: {},
  };
}

export interface FuzzOptions {
  /** Requests per target (the total is four times this). */
  perTarget: number;
  seed?: number;
  concurrency?: number;
  deadlineMs?: number;
  log?: (line: string) => void;
}

export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const seed = options.seed ?? (Date.now() ^ (Math.random() * 0x7fffffff)) >>> 0;
  const log = options.log ?? ((line: string) => console.log(line));
  const deadlineMs = options.deadlineMs ?? 10_000;
  const concurrency = options.concurrency ?? 8;
  const t0 = Date.now();
  const { startRedis } = await import('../proxy/redis-server.js');
  const redis = await startRedis();
  const targets: Target[] = [];
  const findings: Finding[] = [];
  const counts = new Map<TargetName, Counts>();
  try {
    // Started one after another: four Node processes starting at once on two cores take longer.
    targets.push(await startProxyTarget('proxy (memory store)', 'memory'));
    targets.push(await startProxyTarget('proxy (Redis store)', 'redis', redis.url));
    targets.push(await startDevTarget());
    targets.push(await startSandboxTarget());
    log(
      `[fuzz] seed ${seed}: ${options.perTarget} requests to each of ${targets.length} targets (started in ${Date.now() - t0} ms)`,
    );
    for (const t of targets) t.child.once('exit', () => (t.exited = true));
    await Promise.all(
      targets.map(async (t, ti) => {
        const c = emptyCounts();
        counts.set(t.name, c);
        const requests = fc.sample(requestArb(t), { numRuns: options.perTarget, seed: seed + ti });
        let next = 0;
        const worker = async () => {
          while (next < requests.length) {
            const r = requests[next++]!;
            if (t.exited) {
              c.requests++;
              c.crashes++;
              continue;
            }
            let o = await send(t.port, r, deadlineMs);
            // A server that answers early and closes can lose its answer to the reset each time; up to three tries.
            for (let tries = 0; tries < 3 && o.kind === 'closed' && o.midBody && !r.cut && !t.exited; tries++) {
              o = await send(t.port, r, deadlineMs);
              if (o.kind === 'answer') c.retried++;
            }
            const viteOwns = (path: string) =>
              t.name === 'dev stack (Vite)' && !/^\/(mediakit|sandbox)(\/|$)/.test(path.split('?')[0]!);
            const failed = (x: Outcome) =>
              x.kind === 'hang' ||
              (x.kind === 'answer' && x.status >= 500 && !viteOwns(r.target)) ||
              (x.kind === 'closed' && !r.cut);
            if (failed(o) && !t.exited) {
              const again = await send(t.port, r, deadlineMs);
              if (!failed(again)) {
                c.transient++;
                findings.push({
                  target: t.name,
                  kind: 'transient',
                  detail: `${o.kind === 'answer' ? o.status : o.kind}, then ${again.kind === 'answer' ? again.status : again.kind} when sent again`,
                  request: describeRequest(r),
                });
                o = again;
              }
            }
            c.requests++;
            if (o.kind === 'answer') {
              c.statuses[o.status] = (c.statuses[o.status] ?? 0) + 1;
              const path = r.target.split('?')[0]!;
              if (o.status >= 500 && t.name === 'dev stack (Vite)' && !/^\/(mediakit|sandbox)(\/|$)/.test(path)) {
                // The dev stack's middleware passed this path on to Vite, and Vite answered it.
                c.vite5xx++;
                findings.push({
                  target: t.name,
                  kind: "Vite's 5xx",
                  detail: String(o.status),
                  request: describeRequest(r),
                });
              } else {
                const bucket = o.status >= 500 ? 's5xx' : o.status >= 400 ? 's4xx' : o.status >= 300 ? 's3xx' : 's2xx';
                c[bucket]++;
                if (o.status >= 500)
                  findings.push({ target: t.name, kind: '5xx', detail: String(o.status), request: describeRequest(r) });
              }
              // A preflight (OPTIONS) answers no data; any other 2xx served the control plane.
              if (o.status < 300 && r.method !== 'OPTIONS' && controlPlane(t, path) && foreign(r)) {
                c.foreignHost++;
                findings.push({
                  target: t.name,
                  kind: 'foreign Host served',
                  detail: String(o.status),
                  request: describeRequest(r),
                });
              }
            } else if (o.kind === 'hang') {
              c.hangs++;
              findings.push({
                target: t.name,
                kind: 'hang',
                detail: `no answer in ${deadlineMs} ms`,
                request: describeRequest(r),
              });
            } else if (r.cut && !t.exited) {
              c.cutClosed++;
            } else {
              c.crashes++;
              findings.push({
                target: t.name,
                kind: 'crash',
                detail: t.exited ? 'the process died' : `closed without an answer (${o.error ?? 'close'})`,
                request: describeRequest(r),
              });
            }
          }
        };
        await Promise.all(Array.from({ length: concurrency }, worker));
        // Still serving after all that: an honest request answers.
        const probe = await fetch(`${t.url}${t.name === 'sandbox (CLI)' ? '' : '/mediakit'}/api/v1/account`, {
          headers: { authorization: `Bearer ${t.seeds.bearers[0]}` },
        }).catch(() => undefined);
        if (!probe || probe.status >= 500) {
          c.crashes++;
          findings.push({
            target: t.name,
            kind: 'crash',
            detail: `after the fuzz an honest request got ${probe?.status ?? 'no answer'}`,
            request: 'GET …/api/v1/account',
          });
        }
        await probe?.arrayBuffer();
      }),
    );
  } finally {
    for (const t of targets) if (!t.exited) t.child.kill('SIGTERM');
    redis.child?.kill();
  }
  const stderr = targets.flatMap((t) => t.stderr.map((l) => `${t.name}: ${l}`)).slice(0, 40);
  return { seed, counts, findings, stderr, ms: Date.now() - t0 };
}

export function formatReport(report: FuzzReport): string {
  const cols = [
    'requests',
    '2xx',
    '3xx',
    '4xx',
    '5xx',
    'hangs',
    'crashes',
    'cut, closed',
    'reset, retried',
    'transient',
    "Vite's 5xx",
    'foreign Host served',
  ];
  const values = (c: Counts) =>
    [
      c.requests,
      c.s2xx,
      c.s3xx,
      c.s4xx,
      c.s5xx,
      c.hangs,
      c.crashes,
      c.cutClosed,
      c.retried,
      c.transient,
      c.vite5xx,
      c.foreignHost,
    ].map(String);
  const rows: string[][] = [];
  const total = emptyCounts();
  for (const [name, c] of report.counts) {
    rows.push([name, ...values(c)]);
    for (const k of Object.keys(total) as (keyof Counts)[]) if (k !== 'statuses') total[k] += c[k];
  }
  rows.push(['total', ...values(total)]);
  const widths = [Math.max(...rows.map((r) => r[0]!.length), 6), ...cols.map((c) => Math.max(c.length, 6))];
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [
    `HTTP fuzz, seed ${report.seed} (repeat with FUZZ_SEED=${report.seed}), ${(report.ms / 1000).toFixed(1)} s`,
    line(['target', ...cols]),
    ...rows.map(line),
    ...[...report.counts].map(
      ([name, c]) =>
        `${name}: ` +
        Object.entries(c.statuses)
          .map(([status, n]) => `${status} x${n}`)
          .join(', '),
    ),
  ].join('\n');
}
