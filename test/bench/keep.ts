/**
 * Kept results (issue 21): a 500 MB scene kept through the proxy from a synthetic upstream into
 * the filesystem store and into the S3 store on s3rver (in this process, on a random port), each
 * in a process of its own (keep-child.ts) with process.memoryUsage() sampled every 10 ms, against
 * the same stream written straight into the same kind of store without the proxy (in another
 * process, so neither inherits the other's heap). Then the kept
 * file read back through the proxy (checked byte for byte by digest). Goal: the proxy's memory
 * grows at most 64 MiB whatever the size (it streams; the S3 upload holds at most queueSize parts
 * of 5 MiB). BENCH_KEEP_MB sets the size.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startS3 } from '../fixtures/s3.js';

const MiB = 1024 * 1024;
const GOAL = 64 * MiB;

interface Phase {
  seconds: number;
  rss: number;
  heap: number;
  external: number;
}

interface Answer {
  kind: string;
  bytes: number;
  baseline: Phase;
  kept: Phase;
  served: Phase;
}

function run(env: Record<string, string>): Promise<Answer> {
  const child = fork(fileURLToPath(new URL('./keep-child.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx', '--expose-gc', '--no-warnings'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (m) => {
      const message = m as { error?: string };
      if (message.error) reject(new Error(message.error));
      else resolve(m as never);
    });
    child.once('exit', (code) => reject(new Error(`the keep bench child exited with ${code}`)));
  });
}

const mb = (n: number) => (n / MiB).toFixed(1);

export async function keepBench(): Promise<void> {
  const s3 = await startS3();
  const rows: Record<string, string>[] = [];
  const worst: Record<string, number> = {};
  try {
    for (const store of ['file', 's3']) {
      const env = { STORE: store, S3_ENDPOINT: s3.endpoint, BUCKET: s3.bucket };
      const r = { ...(await run({ ...env, PHASE: 'baseline' })), ...(await run({ ...env, PHASE: 'keep' })) };
      const name = store === 's3' ? 's3ResultStore (s3rver)' : 'fileResultStore';
      const row = (what: string, p: Phase) => ({
        run: what,
        'MB/s': (r.bytes / 1e6 / p.seconds).toFixed(0),
        seconds: p.seconds.toFixed(2),
        'RSS growth MiB': mb(p.rss),
        'heap growth MiB': mb(p.heap),
        'external growth MiB': mb(p.external),
      });
      rows.push(row(`baseline: stream -> ${store === 's3' ? 'Upload' : 'file'}, no proxy`, r.baseline));
      rows.push(row(`keep through the proxy -> ${name}`, r.kept));
      rows.push(row(`serve the kept file through the proxy (${name})`, r.served));
      worst[name] = Math.max(r.kept.rss, r.served.rss);
    }
  } finally {
    await s3.close();
  }
  console.log(
    `\nKeeping a ${process.env['BENCH_KEEP_MB'] ?? 500} MB scene (one process per store; memory sampled every 10 ms)`,
  );
  console.table(rows);
  console.log(
    `goal: the proxy's RSS growth <= 64 MiB: ${Object.entries(worst)
      .map(([name, n]) => `${name} ${mb(n)} MiB (${n <= GOAL ? 'met' : 'NOT MET'})`)
      .join(', ')}`,
  );
}
