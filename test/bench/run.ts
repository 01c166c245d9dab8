/**
 * `npm run bench`: sandbox throughput and artifact cost, each against a baseline measured in the
 * same run on the same machine, printed as tables. Not a test: it asserts nothing and never runs
 * in `npm test`.
 *   1. Poll throughput: GET a job over HTTP from the sandbox vs a bare node:http server answering
 *      a fixed JSON body of the same size (the floor of any HTTP poll on this machine).
 *   2. Artifact time: each generator vs the cheapest honest baseline of its kind (decode and
 *      re-encode the same input image with sharp; write the same number of bytes to a buffer).
 *   2b. The sandbox's peak memory for a 500 MB video upload vs a bare server piping it to a file
 *      (sandbox.ts).
 *   3. The proxy: a 500 MB video upload through it vs direct, a plain pipe proxy and a plain
 *      fetch proxy (throughput and VmHWM memory growth), and its added latency per poll
 *      (proxy.ts).
 *   4. The job engine in Chromium: requests per completed job of each kind, and poll traffic of
 *      1 and 4 tabs watching one job, against a naive every-second poller (jobs.ts).
 *   5. The viewers: chunk sizes next to @google/model-viewer, and src-to-first-frame time and
 *      JavaScript fetched for the shared GLBs and generated splat scenes (viewers.ts).
 *   6. The elements: the JavaScript a page loads to show each one, next to mux-uploader and Uppy's
 *      Dashboard (elements.ts).
 *   7. <video-to-3d-uploader>'s upload of a 500 MB video: first byte after start and IndexedDB disk
 *      use, against a plain client upload (upload.ts).
 *   8. Kept results: a 500 MB scene kept through the proxy into the filesystem store and the S3
 *      store (s3rver), memory growth and throughput against a direct write (keep.ts).
 *   9. Splat scenes at their real size (300k, 1M, 2M splats): <splat-viewer>'s time to first
 *      splats and to the whole scene and Chromium's peak memory, against the splat library alone
 *      on the same file in the same run, and a phone-class run (scenes.ts).
 *  10. The sandbox on both platforms in one run: a headshot batch, an image-tool call and fast 3D
 *      jobs on Node's `createSandbox` and in Chromium on `createBrowserSandbox`, same inputs
 *      (sandbox-browser.ts).
 *  11. Photos made to fit in Chromium (issue 32): the phone-photo corpus's 24 MP JPEG (and its
 *      HEIC) converted as each image element asks, milliseconds, beside sharp in Node
 *      (convert-photo.ts).
 *  12. The proxy as a cluster under load and faults (`npm run bench -- cluster` only, not in the full
 *      run): three instances behind a balancer, Redis, an instance killed and Redis restarted, and
 *      the ledger checked against the sandbox's (cluster.ts).
 *  13. Phone videos made to fit in Chromium (issue 32): a 4K 30 fps H.264 clip to 1080p by the
 *      uploader's converter, seconds and renderer peak memory, beside ffmpeg libx264 veryfast
 *      (convert-video.ts; BENCH_CONVERT_SECONDS sets the clip's length, default 60).
 * `npm run bench -- proxy` (or `sandbox`, `sandbox-browser`, `jobs`, `viewers`, `elements`, `upload`, `keep`, `scenes`, `convert`) runs one part; BENCH_UPLOAD_MB sets the upload size, BENCH_KEEP_MB the kept scene's, BENCH_SCENES the scene sizes.
 */
import { createServer } from 'node:http';
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { createSandbox, serve } from '../../src/sandbox/index.js';
import { buildScene } from '../../src/sandbox/artifacts/scene.js';
import { buildRelief } from '../../src/sandbox/artifacts/relief.js';
import { encodeTurntable } from '../../src/sandbox/artifacts/turntable.js';
import { prepareSelfie, renderHeadshot } from '../../src/sandbox/artifacts/headshot.js';
import { runImageTool } from '../../src/sandbox/artifacts/image-tool.js';
import { glbStats } from '../../src/sandbox/artifacts/glb-stats.js';
import { makeImage, makeVideo } from '../fixtures/media.js';
import { proxyBench } from './proxy.js';
import { sandboxUploadBench } from './sandbox.js';
import { jobsBench } from './jobs.js';
import { viewersBench } from './viewers.js';
import { elementsBench } from './elements.js';
import { uploadBench } from './upload.js';
import { keepBench } from './keep.js';
import { scenesBench } from './scenes.js';
import { sandboxBrowserBench } from './sandbox-browser.js';
import { convertPhotoBench } from './convert-photo.js';
import { clusterBench } from './cluster.js';
import { convertVideoBench } from './convert-video.js';

const DURATION_MS = Number(process.env['BENCH_MS'] ?? 3000);
const CONCURRENCY = 32;

async function load(url: string, headers: Record<string, string>): Promise<{ rps: number; p50: number; p99: number }> {
  const latencies: number[] = [];
  const end = performance.now() + DURATION_MS;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) {
        const t = performance.now();
        const r = await fetch(url, { headers });
        await r.arrayBuffer();
        latencies.push(performance.now() - t);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return {
    rps: latencies.length / (DURATION_MS / 1000),
    p50: latencies[Math.floor(latencies.length * 0.5)]!,
    p99: latencies[Math.floor(latencies.length * 0.99)]!,
  };
}

async function time<T>(fn: () => Promise<T>, runs = 3): Promise<{ ms: number; value: T }> {
  let best = Infinity;
  let value!: T;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    value = await fn();
    best = Math.min(best, performance.now() - t);
  }
  return { ms: best, value };
}

function table(title: string, rows: Record<string, string | number>[]): void {
  console.log(`\n${title}`);
  console.table(rows);
}

async function pollBench(): Promise<void> {
  const sandbox = createSandbox({ speed: 1 });
  const { server, url } = await serve((r) => sandbox.fetch(r), 0);
  const account = (await (
    await fetch(url + '/__sandbox/accounts', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"credits":100}',
    })
  ).json()) as any;
  const created = await fetch(url + '/api/v1/3d/jobs', {
    method: 'POST',
    headers: { authorization: `Bearer ${account.keys.generate}`, 'content-type': 'application/json' },
    body: '{"mode":"text","prompt":"a cup"}',
  });
  const pollPath = created.headers.get('location')!;
  const sample = await (await fetch(url + pollPath, { headers: { 'x-api-key': account.keys.generate } })).text();
  const bare = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(sample));
  await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
  const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/`;
  const base = await load(bareUrl, {});
  const sb = await load(url + pollPath, { 'x-api-key': account.keys.generate });
  table(`Poll throughput (${CONCURRENCY} concurrent, ${DURATION_MS} ms each)`, [
    {
      case: 'baseline: bare node:http, same body',
      'req/s': Math.round(base.rps),
      'p50 ms': base.p50.toFixed(2),
      'p99 ms': base.p99.toFixed(2),
      'vs baseline': '1.00x',
    },
    {
      case: 'sandbox GET /api/v1/3d/jobs/{id}',
      'req/s': Math.round(sb.rps),
      'p50 ms': sb.p50.toFixed(2),
      'p99 ms': sb.p99.toFixed(2),
      'vs baseline': (sb.rps / base.rps).toFixed(2) + 'x',
    },
  ]);
  await sandbox.idle();
  server.closeAllConnections();
  server.close();
  bare.close();
}

async function artifactBench(): Promise<void> {
  const photo = await makeImage({ width: 1024, height: 1024 });
  const selfie = await makeImage({ width: 768, height: 1024, format: 'jpeg' });
  const clip = await makeVideo({ seconds: 10, width: 1280, height: 720, fps: 24 });
  const rows: Record<string, string | number>[] = [];
  const baseline = await time(async () => sharp(photo).png().toBuffer());
  rows.push({
    artifact: 'baseline: sharp decode + PNG encode of the 1024 px photo',
    ms: baseline.ms.toFixed(1),
    output: `${baseline.value.byteLength} B`,
    'vs baseline': '1.0x',
  });
  const add = (name: string, ms: number, output: string) =>
    rows.push({ artifact: name, ms: ms.toFixed(1), output, 'vs baseline': (ms / baseline.ms).toFixed(1) + 'x' });

  const digest = new Uint8Array(createHash('sha256').update(clip).digest());
  const scene = await time(
    () => buildScene({ video: clip, durationSeconds: 10, width: 1280, height: 720, sha256: digest }),
    2,
  );
  add(
    `video: splat PLY + zip from a 10 s 720p clip (${scene.value.source})`,
    scene.ms,
    `${scene.value.splats} splats, ${scene.value.ply.byteLength} B ply`,
  );
  for (const [quality, size] of [
    ['fast', 512],
    ['standard', 1024],
    ['high', 2048],
  ] as const) {
    const relief = await time(() => buildRelief([photo], { textureSize: size, seed: 1, cutout: false }), 2);
    add(`3D: GLB relief, ${quality} (${size} px texture)`, relief.ms, `${relief.value.glb.byteLength} B`);
  }
  const relief = await buildRelief([photo], { textureSize: 512, seed: 1, cutout: false });
  const stats = await time(() => glbStats(relief.glb));
  add('3D: stats read back from the GLB', stats.ms, `${stats.value.triangles} triangles`);
  const turntable = await time(() => encodeTurntable(relief.faces), 2);
  add('3D: turntable MP4, 36 frames 256 px (raster + H.264)', turntable.ms, `${turntable.value.byteLength} B`);
  const batch = await time(async () => {
    const cut = await prepareSelfie(selfie);
    return Promise.all(([0, 1, 2, 3] as const).map((slot) => renderHeadshot(cut, 'corporate', slot)));
  }, 2);
  add(
    'headshots: full batch of 4 PNGs from a 768x1024 selfie',
    batch.ms,
    `${batch.value.reduce((n, v) => n + v.png.byteLength, 0)} B`,
  );
  const bg = await time(() => runImageTool(photo, { size: 'auto', format: 'png', bgColor: undefined, crop: false }));
  add('image tools: background removal, 1024 px PNG', bg.ms, `${bg.value.bytes.byteLength} B`);
  table('Artifact generation (best of runs)', rows);
}

const only = process.argv[2];
if (!only || only === 'sandbox') {
  await sandboxUploadBench();
  if (process.env['BENCH_SKIP_ARTIFACTS'] !== '1') {
    await pollBench();
    await artifactBench();
  }
}
if (!only || only === 'sandbox-browser') await sandboxBrowserBench();
if (!only || only === 'proxy') await proxyBench();
if (!only || only === 'jobs') await jobsBench();
if (!only || only === 'viewers') await viewersBench();
if (!only || only === 'elements') await elementsBench();
if (!only || only === 'upload') await uploadBench();
if (!only || only === 'keep') await keepBench();
if (!only || only === 'scenes') await scenesBench();
if (!only || only === 'convert') await convertPhotoBench();
if (!only || only === 'convert') await convertVideoBench();
if (only === 'cluster') await clusterBench();
