/**
 * The sandbox's streaming multipart parser writes file parts to disk with backpressure; waiting
 * for the disk must not pile listeners on the write stream (Node then prints
 * MaxListenersExceededWarning, and each upload leaks them until it ends).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox, type Harness } from './harness.js';

describe('multipart uploads to the sandbox', () => {
  let sandbox: Harness;
  let key: string;
  const warnings: Error[] = [];
  const onWarning = (w: Error) => warnings.push(w);
  before(async () => {
    sandbox = await startSandbox();
    key = (await sandbox.account(1000)).keys.video;
    process.on('warning', onWarning);
  });
  after(async () => {
    process.off('warning', onWarning);
    await sandbox.close();
  });

  it('spools large and many file parts without a MaxListenersExceededWarning', async () => {
    const form = new FormData();
    // Larger than the write stream's buffer many times over: the parser waits for 'drain' again and again.
    form.append('video_file', new Blob([new Uint8Array(4 * 1024 * 1024).fill(7)], { type: 'video/mp4' }), 'big.mp4');
    for (let i = 0; i < 40; i++)
      form.append(
        `extra_${i}`,
        new Blob([new Uint8Array(256 * 1024).fill(i)], { type: 'application/octet-stream' }),
        `part${i}.bin`,
      );
    const r = await sandbox.call('/api/v1/video-to-3d/jobs', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: form,
    });
    assert.equal(r.status, 400, 'refused (unknown fields, not a video), after the whole form was spooled');
    await r.arrayBuffer();
    // Warnings are emitted on the next tick.
    await new Promise((resolve) => setImmediate(resolve));
    const leaks = warnings.filter((w) => w.name === 'MaxListenersExceededWarning');
    assert.deepEqual(
      leaks.map((w) => w.message),
      [],
    );
  });
});
