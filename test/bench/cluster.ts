/**
 * `npm run bench -- cluster`: three proxy instances behind a round-robin balancer with health
 * checks, one Redis (append-only file, so a restart keeps the budgets), the file result store, the
 * sandbox upstream; autocannon drives sessions polling their jobs, 50 MB video uploads, charged
 * calls (with Idempotency-Keys that repeat) and keeps, while one instance is killed with SIGKILL
 * and restarted, Redis is stopped and restarted, and the sandbox answers a burst of 500s and 429s.
 * Printed: requests per second and latency p50/p99 per route (the poll and the 3D creation also
 * straight to the sandbox, the added latency being the difference), each instance's peak memory,
 * what a charged call got while Redis was down and after, and the ledger check: the credits used
 * in the proxy (every subject's budget, summed) against what the sandbox charged minus refunds.
 *
 * Scale: BENCH_CLUSTER_SESSIONS (default 2000), BENCH_CLUSTER_SECONDS (default 60),
 * BENCH_CLUSTER_UPLOADS (default 50) of BENCH_CLUSTER_UPLOAD_MB (default 50).
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon, { type Result } from 'autocannon';
import { makeVideo } from '../fixtures/media.js';
import { freePort } from '../runtimes/servers.js';

const SESSIONS = Number(process.env['BENCH_CLUSTER_SESSIONS'] ?? 2000);
const JOBS = Number(process.env['BENCH_CLUSTER_JOBS'] ?? 200);
const SECONDS = Number(process.env['BENCH_CLUSTER_SECONDS'] ?? 60);
const UPLOADS = Number(process.env['BENCH_CLUSTER_UPLOADS'] ?? 50);
const UPLOAD_MB = Number(process.env['BENCH_CLUSTER_UPLOAD_MB'] ?? 50);
const SECRET = 'cluster-bench-secret-0123456789abcdef0123456789';
const node = new URL('./cluster-node.ts', import.meta.url).pathname;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);

function memoryOf(pid: number | undefined): { hwm: number; rss: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
    return { hwm: kb('VmHWM'), rss: kb('VmRSS') };
  } catch {
    return { hwm: 0, rss: 0 };
  }
}

/** Every process the bench starts, killed when it exits, however it exits. */
const started: ChildProcess[] = [];
process.once('exit', () => {
  for (const p of started) if (p.exitCode === null) p.kill('SIGKILL');
});

function child(mode: string, env: Record<string, string>): Promise<{ proc: ChildProcess; message: any }> {
  const proc = fork(node, [mode], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  started.push(proc);
  return new Promise((resolve, reject) => {
    proc.once('message', (message) => resolve({ proc, message }));
    proc.once('exit', (code) => reject(new Error(`${mode} exited with ${code}`)));
  });
}

/** Redis with an append-only file, on a fixed port, so a restart finds the same data. */
function redisServer(port: number, dir: string) {
  let proc: ChildProcess | undefined;
  return {
    async start() {
      proc = spawn(
        'redis-server',
        [
          '--port',
          String(port),
          '--bind',
          '127.0.0.1',
          '--dir',
          dir,
          '--appendonly',
          'yes',
          '--appendfsync',
          'always',
          '--save',
          '',
        ],
        { stdio: 'ignore' },
      );
      started.push(proc);
      for (let i = 0; i < 100; i++) {
        const ok = await new Promise<boolean>((r) => {
          const c = spawn('redis-cli', ['-p', String(port), 'ping'], { stdio: 'ignore' });
          c.on('exit', (code) => r(code === 0));
        });
        if (ok) return;
        await sleep(50);
      }
      throw new Error('redis did not start');
    },
    /** SHUTDOWN (the append-only file is already written at every command). */
    async stop() {
      const exited = new Promise((r) => proc?.once('exit', r));
      spawn('redis-cli', ['-p', String(port), 'shutdown'], { stdio: 'ignore' });
      await exited;
    },
  };
}

/** A round-robin HTTP balancer over `ports`, leaving out an instance that refused a connection until a health check finds it again. */
const lbErrors: Record<string, number> = {};
function balancer(ports: number[]) {
  const down = new Set<number>();
  let next = 0;
  const pick = () => {
    for (let i = 0; i < ports.length; i++) {
      const port = ports[next++ % ports.length]!;
      if (!down.has(port)) return port;
    }
    return ports[next++ % ports.length]!;
  };
  const timer = setInterval(() => {
    for (const port of down) {
      const probe = httpRequest({ host: '127.0.0.1', port, path: '/mediakit/session', method: 'GET' }, (res) => {
        res.resume();
        down.delete(port);
      });
      probe.on('error', () => {});
      probe.end();
    }
  }, 250);
  const server = createServer((req, res) => {
    const port = pick();
    const out = httpRequest(
      { host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    out.on('error', (err: NodeJS.ErrnoException) => {
      lbErrors[err.code ?? err.message] = (lbErrors[err.code ?? err.message] ?? 0) + 1;
      if (err.code === 'ECONNREFUSED') down.add(port);
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    req.pipe(out);
  });
  return {
    server,
    close() {
      clearInterval(timer);
      server.closeAllConnections();
      server.close();
    },
  };
}

/** A real MP4 padded with an ISO-BMFF `free` box to `mb` MiB, in a multipart body. */
async function uploadBody(mb: number): Promise<{ body: Buffer; type: string }> {
  const video = Buffer.from(await makeVideo({ seconds: 2, width: 320, height: 240 }));
  const pad = Math.max(8, mb * 1024 * 1024 - video.length);
  const free = Buffer.alloc(pad);
  free.writeUInt32BE(pad, 0);
  free.write('free', 4, 'latin1');
  const boundary = 'clusterbench0123456789';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="video_file"; filename="walk.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
    ),
    video,
    free,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, type: `multipart/form-data; boundary=${boundary}` };
}

const run = (opts: Record<string, unknown>) => autocannon(opts);
const codes = (r: Result) =>
  Object.entries(r.statusCodeStats ?? {})
    .map(([code, s]) => `${code}:${s.count}`)
    .join(' ');

export async function clusterBench(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'mediakit-cluster-'));
  const redisPort = await freePort();
  const redis = redisServer(redisPort, work);
  await redis.start();
  const sandbox = await child('sandbox', { PORT: '0' });
  const upstream = sandbox.message.url as string;
  const keys = sandbox.message.keys as Record<string, string>;
  const ports = [await freePort(), await freePort(), await freePort()];
  const env = (port: number) => ({
    PORT: String(port),
    UPSTREAM: upstream,
    KEYS: JSON.stringify(keys),
    SECRET,
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    RESULTS_DIR: join(work, 'results'),
  });
  const instances = await Promise.all(ports.map(async (port) => (await child('proxy', env(port))).proc));
  const peaks: { name: string; pid: number | undefined }[] = instances.map((p, i) => ({
    name: `proxy ${i + 1}`,
    pid: p.pid,
  }));
  const lb = balancer(ports);
  await new Promise<void>((r) => lb.server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(lb.server.address() as { port: number }).port}`;
  const ledger = async () =>
    (await (
      await fetch(`${upstream}/__sandbox/accounts/${sandbox.message.accountId}/ledger`, {
        headers: { authorization: `Bearer ${keys['generate']}` },
      })
    ).json()) as { balance: number; entries: { type: string; amount: number }[] };

  console.log(
    `\n== Cluster: 3 proxies, Redis, the sandbox; ${SESSIONS} sessions (${JOBS} with a job), ${SECONDS} s of load ==`,
  );
  // Setup (not timed): sessions, and a 3D job for the first JOBS of them, finished by moving the clock.
  const sessions: { token: string; handle: string }[] = [];
  const setupRetries: Record<number, number> = {};
  const t0 = performance.now();
  for (let i = 0; i < SESSIONS; i += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, SESSIONS - i) }, async (_, j) => {
        const n = i + j;
        const s = await fetch(`${base}/mediakit/session`, { method: 'POST', headers: { cookie: `user=u${n}` } });
        const token = ((await s.json()) as { data: { token: string } }).data.token;
        let handle = '';
        // The same Idempotency-Key on a retry: a creation answered late (504 under the setup's load) is charged once.
        for (let tries = 0; n < JOBS && !handle; tries++) {
          const c = await fetch(`${base}/mediakit/api/v1/3d/jobs`, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${token}`,
              'content-type': 'application/json',
              'idempotency-key': `setup-${n}`,
            },
            body: JSON.stringify({ mode: 'text', prompt: `a lamp number ${n}`, quality: 'fast' }),
          });
          const body = (await c.json()) as { data?: { job_id: string } };
          if (c.status !== 202) setupRetries[c.status] = (setupRetries[c.status] ?? 0) + 1;
          if (body.data) handle = body.data.job_id;
          else if (tries > 10) throw new Error(`setup: a 3D creation answered ${c.status}: ${JSON.stringify(body)}`);
        }
        sessions[n] = { token, handle };
      }),
    );
  }
  await fetch(`${upstream}/__sandbox/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ advance_ms: 3_600_000 }),
  });
  const withJobs = sessions.slice(0, JOBS);
  // The sandbox builds a finished job's files in the background: poll until each has them.
  for (const s of withJobs) {
    for (let i = 0; ; i++) {
      const r = await fetch(`${base}/mediakit/api/v1/3d/jobs/${s.handle}`, {
        headers: { authorization: `Bearer ${s.token}` },
      });
      const status = ((await r.json()) as { data: { status: string } }).data.status;
      if (status === 'succeeded') break;
      if (status !== 'processing' || i > 600) throw new Error(`setup job ${status}`);
      await sleep(100);
    }
  }
  console.log(
    `setup: ${sessions.length} sessions, ${JOBS} of them with a succeeded 3D job, in ${((performance.now() - t0) / 1000).toFixed(1)} s (creations retried after ${JSON.stringify(setupRetries)})`,
  );
  const before = await ledger();
  const charged = (l: typeof before) =>
    l.entries.reduce((sum, e) => sum + (e.type === 'charge' ? e.amount : -e.amount), 0);

  // Baselines straight to the sandbox: a poll and a 3D creation with the site's key.
  const direct = await (
    await fetch(`${upstream}/api/v1/3d/jobs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${keys['generate']}`, 'content-type': 'application/json' },
      body: JSON.stringify({ mode: 'text', prompt: 'a baseline lamp', quality: 'fast' }),
    })
  ).json();
  const directJob = (direct as { data: { job_id: string } }).data.job_id;
  const baselinePoll = await run({
    url: `${upstream}/api/v1/3d/jobs/${directJob}`,
    headers: { authorization: `Bearer ${keys['generate']}` },
    connections: 50,
    duration: 5,
  });
  const baselineCreate = await run({
    url: `${upstream}/api/v1/3d/jobs`,
    method: 'POST',
    headers: { authorization: `Bearer ${keys['generate']}`, 'content-type': 'application/json' },
    body: JSON.stringify({ mode: 'text', prompt: 'a baseline lamp', quality: 'fast' }),
    connections: 4,
    overallRate: 5,
    duration: 5,
  });
  await sleep(2000); // creations the baseline still had in flight when it stopped
  const afterBaselines = await ledger();
  const trial = await fetch(`${base}/mediakit/results`, {
    method: 'POST',
    headers: { authorization: `Bearer ${withJobs[0]!.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ job: withJobs[0]!.handle, file: 'glb' }),
  });
  console.log(`a keep before the load: ${trial.status} ${(await trial.text()).slice(0, 200)}`);

  // The load, and the faults on a timeline.
  const rand = () => sessions[Math.floor(Math.random() * sessions.length)]!;
  const randJob = () => withJobs[Math.floor(Math.random() * withJobs.length)]!;
  const upload = await uploadBody(UPLOAD_MB);
  let createN = 0;
  // Every session polls its budget (what <credit-badge> does); those with a job poll the job too.
  let pollN = 0;
  const polls = run({
    url: base,
    connections: 50,
    duration: SECONDS,
    requests: [
      {
        method: 'GET',
        setupRequest: (req: any) => {
          if (pollN++ % 2 === 0) {
            const s = rand();
            return { ...req, path: '/mediakit/session', headers: { authorization: `Bearer ${s.token}` } };
          }
          const s = randJob();
          return {
            ...req,
            path: `/mediakit/api/v1/3d/jobs/${s.handle}`,
            headers: { authorization: `Bearer ${s.token}` },
          };
        },
      },
    ],
  });
  const creates = run({
    url: base,
    connections: 4,
    overallRate: 5, // a 3D creation costs the sandbox about 130 ms of CPU: more would measure the sandbox
    duration: SECONDS,
    requests: [
      {
        method: 'POST',
        setupRequest: (req: any) => {
          const n = createN++;
          const s = sessions[n % sessions.length]!;
          // Every other call retries its session's one repeated key: a retry that must not charge again.
          return {
            ...req,
            path: '/mediakit/api/v1/3d/jobs',
            headers: {
              authorization: `Bearer ${s.token}`,
              'content-type': 'application/json',
              'idempotency-key': n % 2 === 0 ? `once-${n}` : `again-${n % sessions.length}`,
            },
            body: JSON.stringify({ mode: 'text', prompt: 'a retried lamp', quality: 'fast' }),
          };
        },
      },
    ],
  });
  const keeps = run({
    url: base,
    connections: 2,
    duration: SECONDS,
    requests: [
      {
        method: 'POST',
        setupRequest: (req: any) => {
          const s = randJob();
          return {
            ...req,
            path: '/mediakit/results',
            headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ job: s.handle, file: 'glb' }),
          };
        },
      },
    ],
  });
  let uploadN = 0;
  const uploads = sleep(5000).then(() =>
    run({
      url: base,
      connections: UPLOADS,
      amount: UPLOADS,
      timeout: 120,
      requests: [
        {
          method: 'POST',
          setupRequest: (req: any) => {
            const s = sessions[uploadN++ % sessions.length]!;
            return {
              ...req,
              path: '/mediakit/api/v1/video-to-3d/jobs',
              headers: { authorization: `Bearer ${s.token}`, 'content-type': upload.type },
              body: upload.body,
            };
          },
        },
      ],
    }),
  );

  // A charged call every 250 ms through the whole run: what a user gets while Redis is down, and after.
  const probe: { at: number; status: number }[] = [];
  const start = performance.now();
  const at = () => (performance.now() - start) / 1000;
  let probing = true;
  const prober = (async () => {
    const s = sessions[0]!;
    while (probing) {
      const r = await fetch(`${base}/mediakit/api/v1/3d/jobs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ mode: 'text', prompt: 'a probing lamp', quality: 'fast' }),
      }).catch(() => undefined);
      probe.push({ at: at(), status: r?.status ?? 0 });
      await r?.arrayBuffer();
      await sleep(250);
    }
  })();
  const events: string[] = [];
  const timeline = (async () => {
    const k = SECONDS / 60;
    await sleep(10_000 * k);
    const killed = memoryOf(instances[1]!.pid);
    peaks[1] = { ...peaks[1]!, name: `proxy 2 (peak ${mib(killed.hwm)} MiB when killed)` };
    instances[1]!.kill('SIGKILL');
    events.push(`${at().toFixed(1)} s: proxy 2 killed (SIGKILL)`);
    await sleep(3000 * k);
    const restarted = (await child('proxy', env(ports[1]!))).proc;
    instances[1] = restarted;
    peaks.push({ name: 'proxy 2, restarted', pid: restarted.pid });
    events.push(`${at().toFixed(1)} s: proxy 2 restarted`);
    await sleep(7000 * k);
    await redis.stop();
    events.push(`${at().toFixed(1)} s: Redis stopped`);
    const redisDown = at();
    await sleep(5000 * k);
    await redis.start();
    const redisUp = at();
    events.push(`${at().toFixed(1)} s: Redis started again`);
    await sleep(5000 * k);
    for (const [kind, count] of [
      ['create_error', 30],
      ['rate_limit', 30],
    ] as const)
      await fetch(`${upstream}/__sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ account_id: sandbox.message.accountId, kind, count }),
      });
    events.push(`${at().toFixed(1)} s: the sandbox answers the next 30 creations with 500 and the next 30 with 429`);
    return { redisDown, redisUp };
  })();
  const [poll, create, keep, up, window] = await Promise.all([polls, creates, keeps, uploads, timeline]);
  probing = false;
  await prober;
  await sleep(2000);

  const row = (name: string, r: Result, baseline?: Result) =>
    console.log(
      `| ${name} | ${r.requests.average.toFixed(0)} | ${r.latency.p50} / ${r.latency.p99} ms | ${
        baseline ? `${baseline.latency.p50} / ${baseline.latency.p99} ms` : '-'
      } | ${codes(r)} |`,
    );
  console.log('\n' + events.join('\n'));
  console.log(`balancer: connection errors ${JSON.stringify(lbErrors)}`);
  console.log('\n| route (through the balancer) | req/s | p50 / p99 | straight to the sandbox p50 / p99 | answers |');
  console.log('|---|---|---|---|---|');
  row('GET session / GET 3D job (polls, half each)', poll, baselinePoll);
  row('POST 3D job (charged, keys repeat)', create, baselineCreate);
  row('POST results (keep a GLB)', keep);
  row(`POST video job (${UPLOADS} x ${UPLOAD_MB} MB at once)`, up);
  console.log(`uploads: ${up.errors} errors, ${up.timeouts} timeouts (autocannon gave up on them)`);
  for (const p of peaks) {
    const m = memoryOf(p.pid);
    console.log(m.hwm ? `${p.name}: peak ${mib(m.hwm)} MiB, now ${mib(m.rss)} MiB` : p.name);
  }
  const during = probe.filter((p) => p.at > window.redisDown + 2.5 && p.at < window.redisUp);
  const afterUp = probe.filter((p) => p.at > window.redisUp + 3 && p.at < window.redisUp + 8);
  const tally = (ps: typeof probe) =>
    Object.entries(ps.reduce<Record<number, number>>((a, p) => ((a[p.status] = (a[p.status] ?? 0) + 1), a), {}))
      .map(([s, n]) => `${s} x${n}`)
      .join(', ');
  console.log(`a charged call while Redis was down: ${tally(during)}; 3-8 s after it came back: ${tally(afterUp)}`);

  // The ledger check: every subject's used credits, summed, against the sandbox's charges minus
  // refunds, once the sandbox's ledger has not moved for 5 s (uploads still in flight settle first).
  for (let last = charged(await ledger()), still = 0; still < 5;) {
    await sleep(1000);
    const now = charged(await ledger());
    still = now === last ? still + 1 : 0;
    last = now;
  }
  let used = 0;
  for (let i = 0; i < sessions.length; i += 100) {
    const views = await Promise.all(
      sessions.slice(i, i + 100).map(async (s) => {
        const r = await fetch(`${base}/mediakit/session`, { headers: { authorization: `Bearer ${s.token}` } });
        return ((await r.json()) as { data: { budget: { used: number } } }).data.budget.used;
      }),
    );
    used += views.reduce((a, b) => a + b, 0);
  }
  const upstreamNet = charged(await ledger()) - charged(afterBaselines) + (charged(before) - 0);
  console.log(
    `ledger: credits used in the proxy ${used}, charged by the sandbox minus refunds ${upstreamNet} (setup included, baselines excluded); difference ${used - upstreamNet}`,
  );

  lb.close();
  for (const p of instances) p.kill('SIGKILL');
  sandbox.proc.kill('SIGKILL');
  await redis.stop();
  rmSync(work, { recursive: true, force: true });
}
