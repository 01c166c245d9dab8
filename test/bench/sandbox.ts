/**
 * The sandbox's memory for a large video upload (issue 10): a 500 MB multipart upload sent
 * direct to the sandbox, beside the baseline of a bare node:http server that pipes the same upload
 * into a temporary file. Each server runs in its own process, so its peak memory (the kernel's
 * VmHWM) is its own. Goal: sandbox growth under 64 MiB.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { makeVideo } from '../fixtures/media.js';

const MiB = 1024 * 1024;
const UPLOAD_MB = Number(process.env['BENCH_UPLOAD_MB'] ?? 500);

interface Child {
  child: ChildProcess;
  url: string;
  info: Record<string, any>;
  memory(): Promise<{ hwm: number; rss: number }>;
}

async function start(mode: string): Promise<Child> {
  const child = fork(fileURLToPath(new URL('./servers.ts', import.meta.url)), [mode], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const info = await new Promise<Record<string, any>>((resolve, reject) => {
    child.once('message', (m) => resolve(m as Record<string, any>));
    child.once('exit', (code) => reject(new Error(`${mode} server exited with ${code}`)));
  });
  return {
    child,
    info,
    url: `http://127.0.0.1:${info['port']}`,
    memory: () =>
      new Promise((resolve) => {
        child.once('message', (m) => resolve((m as { memory: { hwm: number; rss: number } }).memory));
        child.send({ status: true });
      }),
  };
}

function upload(
  base: string,
  auth: string,
  video: Uint8Array,
  fileBytes: number,
): Promise<{ status: number; seconds: number; bytes: number }> {
  const boundary = 'sandboxbenchboundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="video_file"; filename="walk.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const pad = fileBytes - video.byteLength;
  const free = Buffer.alloc(8);
  free.writeUInt32BE(pad, 0);
  free.write('free', 4, 'latin1');
  const total = head.length + fileBytes + tail.length;
  const zeros = Buffer.alloc(MiB);
  const u = new URL(base);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request({
      host: u.hostname,
      port: u.port,
      method: 'POST',
      path: '/api/v1/video-to-3d/jobs',
      headers: {
        authorization: auth,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(total),
      },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, seconds: (performance.now() - started) / 1000, bytes: total }),
      );
    });
    req.on('error', reject);
    const write = (chunk: Uint8Array) => new Promise<void>((r) => (req.write(chunk) ? r() : req.once('drain', r)));
    void (async () => {
      await write(head);
      await write(video);
      await write(free);
      for (let left = pad - 8; left > 0; left -= MiB) await write(left >= MiB ? zeros : zeros.subarray(0, left));
      await write(tail);
      req.end();
    })();
  });
}

export async function sandboxUploadBench(): Promise<void> {
  const video = await makeVideo({ seconds: 2, width: 320, height: 240 });
  const fileBytes = UPLOAD_MB * MiB - 1024;
  const rows: Record<string, string>[] = [];
  for (const [name, mode] of [
    ['baseline: bare node:http, upload piped to a temp file', 'sink'],
    ['sandbox POST /api/v1/video-to-3d/jobs', 'sandbox'],
  ] as const) {
    const server = await start(mode);
    try {
      const auth = mode === 'sandbox' ? `Bearer ${server.info['keys']['video']}` : 'Bearer none';
      const warm = await upload(server.url, auth, video, video.byteLength + 1024);
      if (warm.status !== 202) throw new Error(`${name}: warm-up answered ${warm.status}`);
      const before = await server.memory();
      const r = await upload(server.url, auth, video, fileBytes);
      if (r.status !== 202) throw new Error(`${name}: upload answered ${r.status}`);
      const after = await server.memory();
      rows.push({
        server: name,
        'body MiB': (r.bytes / MiB).toFixed(1),
        seconds: r.seconds.toFixed(2),
        'MiB/s': (r.bytes / MiB / r.seconds).toFixed(0),
        'peak memory growth MiB (VmHWM)': ((after.hwm - before.rss) / MiB).toFixed(1),
      });
    } finally {
      server.child.kill();
    }
  }
  console.log(`\nVideo upload direct to the sandbox (${UPLOAD_MB} MB body; one process per server)`);
  console.table(rows);
  console.log('goal: sandbox memory growth < 64 MiB');
}
