/**
 * One run of the keep bench in a process of its own (forked by keep.ts), so its memory is the
 * run's alone. PHASE=keep: a proxy with a synthetic upstream (one video job whose scene is
 * BENCH_KEEP_MB) keeps the scene into the STORE (`file` or `s3`, the latter on the parent's s3rver
 * at S3_ENDPOINT), then reads it back through the proxy. PHASE=baseline: the same synthetic stream
 * written straight into the same kind of store without the proxy (`pipeline` into a file write
 * stream, or lib-storage's Upload). process.memoryUsage() is sampled every 10 ms; the growth is the
 * peak over the value just before the work (after a GC). Answers the parent with one message.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { createProxy, fileResultStore, type ResultStore } from '../../src/proxy/index.js';
import { s3ResultStore } from '../../src/proxy/keep/s3-result-store.js';
import { syntheticUpstream } from '../fixtures/synthetic-upstream.js';

const MiB = 1024 * 1024;
const bytes = Number(process.env['BENCH_KEEP_MB'] ?? 500) * 1000 * 1000;
const kind = process.env['STORE'] === 's3' ? 's3' : 'file';

interface Phase {
  seconds: number;
  rss: number;
  heap: number;
  external: number;
}

/** Runs `work` while sampling memory; growth is measured from the moment before it starts. */
async function measure(work: () => Promise<void>): Promise<Phase> {
  (globalThis as { gc?: () => void }).gc?.();
  const base = process.memoryUsage();
  const peak = { ...base };
  const timer = setInterval(() => {
    const m = process.memoryUsage();
    peak.rss = Math.max(peak.rss, m.rss);
    peak.heapUsed = Math.max(peak.heapUsed, m.heapUsed);
    peak.external = Math.max(peak.external, m.external);
  }, 10);
  const t0 = performance.now();
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  const seconds = (performance.now() - t0) / 1000;
  const end = process.memoryUsage();
  return {
    seconds,
    rss: Math.max(peak.rss, end.rss) - base.rss,
    heap: Math.max(peak.heapUsed, end.heapUsed) - base.heapUsed,
    external: Math.max(peak.external, end.external) - base.external,
  };
}

const dir = mkdtempSync(join(tmpdir(), 'mediakit-keep-bench-'));
const client =
  kind === 's3'
    ? new S3Client({
        endpoint: process.env['S3_ENDPOINT'],
        region: 'us-east-1',
        forcePathStyle: true,
        credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      })
    : undefined;
const bucket = process.env['BUCKET'] ?? 'kept';
const store: ResultStore = client
  ? s3ResultStore({
      client,
      bucket,
      prefix: `bench-${process.pid}/`,
      ...(process.env['S3_PART_MIB'] ? { partSize: Number(process.env['S3_PART_MIB']) * MiB } : {}),
      ...(process.env['S3_QUEUE'] ? { queueSize: Number(process.env['S3_QUEUE']) } : {}),
    })
  : fileResultStore({ dir: join(dir, 'kept') });
const synth = syntheticUpstream(bytes);

async function baselineRun(): Promise<Phase> {
  return measure(async () => {
    const body = (await synth.fetch(new Request('http://u/api/app/jobs/job_synthetic0000000000000001/download'))).body!;
    if (client) {
      await new Upload({
        client,
        params: { Bucket: bucket, Key: 'baseline/scene.ply', Body: body },
        partSize: 8 * MiB,
        queueSize: 3,
      }).done();
    } else await pipeline(Readable.fromWeb(body as never), createWriteStream(join(dir, 'baseline.ply')));
  });
}

async function keepRun(): Promise<{ kept: Phase; served: Phase }> {
  const proxy = createProxy({
    upstream: (request) => synth.fetch(request),
    keys: { video: 'v3_live_bench' },
    secret: 'bench-secret-0123456789abcdef0123456789abcdef',
    authorize: () => null,
    log: () => {},
    results: { store, quotaBytes: 4 * 1024 * MiB },
  });
  const token = await proxy.mintToken({ subject: 'bench', capabilities: ['video'], budget: 1000, ttlSeconds: 3600 });
  const auth = { authorization: `Bearer ${token}` };
  const form = new FormData();
  form.append('video_file', new Blob([new Uint8Array(64)], { type: 'video/mp4' }), 'v.mp4');
  const body = new Uint8Array(await new Response(form).arrayBuffer());
  const created = await proxy.fetch(
    new Request('http://site/mediakit/api/v1/video-to-3d/jobs', {
      method: 'POST',
      headers: {
        ...auth,
        'content-type': new Response(form).headers.get('content-type')!,
        'content-length': String(body.byteLength),
      },
      body,
    }),
  );
  const handle = ((await created.json()) as { data: { job_id: string } }).data.job_id;
  const keep = (file: string) =>
    proxy.fetch(
      new Request('http://site/mediakit/results', {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ job: handle, file }),
      }),
    );

  // Warm the code paths with a small keep (the zip link serves the same synthetic scene).
  synth.options.bytes = 16 * MiB;
  const warm = await keep('zip');
  if (warm.status !== 201) throw new Error(`warm-up keep answered ${warm.status} ${await warm.text()}`);
  synth.options.bytes = bytes;

  let url = '';
  const kept = await measure(async () => {
    const r = await keep('ply');
    if (r.status !== 201) throw new Error(`keep answered ${r.status} ${await r.text()}`);
    const data = ((await r.json()) as { data: { url: string; bytes: number } }).data;
    if (data.bytes !== bytes) throw new Error(`kept ${data.bytes} bytes of ${bytes}`);
    url = data.url;
  });

  // Read it back through the proxy, checking every byte against the synthetic scene's digest.
  const expected = createHash('sha256');
  const source = (await synth.fetch(new Request('http://u/api/app/jobs/job_synthetic0000000000000001/download'))).body!;
  for await (const chunk of source as unknown as AsyncIterable<Uint8Array>) expected.update(chunk);
  const got = createHash('sha256');
  let read = 0;
  const served = await measure(async () => {
    const r = await proxy.fetch(new Request('http://site' + url));
    for await (const chunk of r.body as unknown as AsyncIterable<Uint8Array>) {
      got.update(chunk);
      read += chunk.byteLength;
    }
  });
  if (read !== bytes || got.digest('hex') !== expected.digest('hex'))
    throw new Error(`the kept scene read back differs (${read} bytes)`);
  return { kept, served };
}

try {
  if (process.env['PHASE'] === 'baseline') process.send!({ kind, bytes, baseline: await baselineRun() });
  else process.send!({ kind, bytes, ...(await keepRun()) });
} catch (err) {
  process.send!({ error: String((err as Error).stack ?? err) });
} finally {
  client?.destroy();
  rmSync(dir, { recursive: true, force: true });
}
