/**
 * The sandbox streams video uploads: the file part is spooled to a temporary file as it arrives,
 * memory stays flat (measured in a child process by the kernel's VmHWM), the file is deleted when
 * the job no longer needs it, and malformed multipart stays a 4xx.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeVideo } from '../fixtures/media.js';
import { envelope, startSandbox, type Harness } from './harness.js';

const MiB = 1024 * 1024;
// Spooled uploads go to a private TMPDIR, so this file can count them.
const TMP = mkdtempSync(join(tmpdir(), 'mk-stream-test-'));
process.env['TMPDIR'] = TMP;
const uploads = () => readdirSync(TMP).filter((d) => d.startsWith('mediakit-upload-'));

/** A multipart video upload of `fileBytes` (a real MP4 padded with a `free` box), streamed in 1 MiB chunks. */
function upload(
  base: string,
  key: string,
  video: Uint8Array,
  fileBytes: number,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  const boundary = 'streamtestboundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="video_file"; filename="walk.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const pad = fileBytes - video.byteLength;
  const free = Buffer.alloc(8);
  free.writeUInt32BE(pad, 0);
  free.write('free', 4, 'latin1');
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({
      host: u.hostname,
      port: u.port,
      method: 'POST',
      path: '/api/v1/video-to-3d/jobs',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(head.length + fileBytes + tail.length),
        ...headers,
      },
    });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    const zeros = Buffer.alloc(MiB);
    const write = (chunk: Uint8Array) => new Promise<void>((r) => (req.write(chunk) ? r() : req.once('drain', r)));
    void (async () => {
      await write(head);
      await write(video);
      if (pad >= 8) {
        await write(free);
        for (let left = pad - 8; left > 0; left -= MiB) await write(left >= MiB ? zeros : zeros.subarray(0, left));
      }
      await write(tail);
      req.end();
    })();
  });
}

describe('streamed uploads in the sandbox', () => {
  let video: Uint8Array;
  before(async () => {
    video = await makeVideo({ seconds: 1, width: 160, height: 120 });
  });

  it('keeps memory growth under 64 MiB for a 256 MB upload (VmHWM of the sandbox process)', async () => {
    const child: ChildProcess = fork(fileURLToPath(new URL('../bench/servers.ts', import.meta.url)), ['sandbox'], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: { ...process.env, TMPDIR: TMP },
    });
    try {
      const info = await new Promise<{ port: number; keys: Record<string, string> }>((resolve) =>
        child.once('message', (m) => resolve(m as never)),
      );
      const memory = () =>
        new Promise<{ hwm: number; rss: number }>((resolve) => {
          child.once('message', (m) => resolve((m as { memory: { hwm: number; rss: number } }).memory));
          child.send({ status: true });
        });
      const base = `http://127.0.0.1:${info.port}`;
      assert.equal((await upload(base, info.keys['video']!, video, video.byteLength + 1024)).status, 202, 'warm-up');
      const before = await memory();
      const r = await upload(base, info.keys['video']!, video, 256 * MiB);
      assert.equal(r.status, 202, r.body);
      const afterUpload = await memory();
      const growth = (afterUpload.hwm - before.rss) / MiB;
      assert.ok(growth < 64, `peak memory grew by ${growth.toFixed(1)} MiB`);
    } finally {
      child.kill();
    }
  });

  describe('temporary files', () => {
    let h: Harness;
    before(async () => {
      h = await startSandbox();
    });
    after(() => h.close());

    it('deletes the spooled file once the job has built its scene, at once for a refused upload, and for a replay', async () => {
      const { keys } = await h.account(100);
      const ok = await upload(h.url, keys.video, video, video.byteLength, { 'idempotency-key': 'tmp-1' });
      assert.equal(ok.status, 202, ok.body);
      await h.sandbox.idle();
      assert.deepEqual(uploads(), []);
      const replay = await upload(h.url, keys.video, video, video.byteLength, { 'idempotency-key': 'tmp-1' });
      assert.equal(replay.status, 202);
      assert.deepEqual(uploads(), []);
      const bad = await upload(h.url, keys.video, new TextEncoder().encode('not a video at all, just text'), 29);
      assert.equal(bad.status, 422, bad.body);
      assert.deepEqual(uploads(), []);
    });

    it('answers malformed multipart with 4xx and leaves no file behind', async () => {
      const { keys } = await h.account(100);
      const send = (body: string, type = 'multipart/form-data; boundary=b') =>
        h.call('/api/v1/video-to-3d/jobs', {
          method: 'POST',
          headers: { authorization: `Bearer ${keys.video}`, 'content-type': type },
          body,
        });
      const part = '--b\r\nContent-Disposition: form-data; name="video_file"; filename="a.mp4"\r\n\r\nDATA';
      const cases: [string, string, string?][] = [
        ['no closing boundary', part],
        ['a part without a name', '--b\r\nContent-Disposition: form-data; filename="a.mp4"\r\n\r\nDATA\r\n--b--\r\n'],
        ['headers that never end', '--b\r\nContent-Disposition: form-data; name="video_file"'],
        ['a field twice', `${part}\r\n${part}\r\n--b--\r\n`],
        ['no boundary parameter', `${part}\r\n--b--\r\n`, 'multipart/form-data'],
        ['garbage after the delimiter', '--bXYZ\r\n\r\n--b--'],
        ['an empty body', ''],
      ];
      for (const [name, body, type] of cases) {
        const r = await send(body, type);
        assert.ok(r.status >= 400 && r.status < 500, `${name}: ${r.status}`);
        await envelope(r);
      }
      assert.deepEqual(uploads(), []);
    });
  });
});
