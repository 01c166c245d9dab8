import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { request as httpRequest } from 'node:http';
import { unzipSync } from 'fflate';
import { GaussianSplatPLYLoader } from 'three/examples/jsm/loaders/GaussianSplatPLYLoader.js';
import { envelope, formPost, PLATFORM, settle, startSandbox, type Harness } from './harness.js';
import { makeVideo } from '../fixtures/media.js';

function videoForm(bytes: Uint8Array, name = 'walk.mp4', type = 'video/mp4'): FormData {
  const form = new FormData();
  form.set('video_file', new Blob([bytes as Uint8Array<ArrayBuffer>], { type }), name);
  return form;
}

describe('video to 3D: creation', () => {
  let h: Harness;
  let clip: Uint8Array;
  before(async () => {
    h = await startSandbox();
    clip = await makeVideo({ seconds: 2, width: 320, height: 240 });
  });
  after(() => h.close());

  it('answers 202 queued, charges 20 and says so in body and headers', async () => {
    const { id, keys } = await h.account(100);
    const r = await h.call('/api/v1/video-to-3d/jobs', formPost(keys.video, videoForm(clip)));
    assert.equal(r.status, 202);
    assert.equal(r.headers.get('x-credits-charged'), '20');
    assert.equal(r.headers.get('x-credits-remaining'), '80');
    const body = (await r.json()) as any;
    assert.match(body.data.job_id, /^job_[A-Za-z0-9_-]{20,}$/);
    assert.equal(body.data.status, 'queued');
    assert.equal(body.credits_charged, 20);
    assert.equal(body.credits_remaining, 80);
    const ledger = await h.ledger(id);
    assert.deepEqual(
      ledger.entries.map((e) => [e.type, e.amount, e.balance_after]),
      [['charge', 20, 80]],
    );
  });

  it('accepts a MOV (QuickTime) container and a Bearer key', async () => {
    const { keys } = await h.account(100);
    const mov = await makeVideo({ seconds: 1, width: 320, height: 240, container: 'mov' });
    const r = await h.call('/api/v1/video-to-3d/jobs', {
      method: 'POST',
      headers: { authorization: `Bearer ${keys.video}` },
      body: videoForm(mov, 'clip.mov', 'video/quicktime'),
    });
    assert.equal(r.status, 202);
  });

  it('judges the container by bytes: a PNG named .mp4 is 422, an MP4 named .txt is accepted', async () => {
    const { id, keys } = await h.account(100);
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0, 1, 2, 3]);
    const bad = await h.call('/api/v1/video-to-3d/jobs', formPost(keys.video, videoForm(png, 'walk.mp4')));
    assert.equal(bad.status, 422);
    assert.equal((await envelope(bad)).code, 'unsupported_media');
    const ok = await h.call(
      '/api/v1/video-to-3d/jobs',
      formPost(keys.video, videoForm(clip, 'notes.txt', 'text/plain')),
    );
    assert.equal(ok.status, 202);
    assert.equal((await h.ledger(id)).balance, 80);
  });

  it('refuses over 3 minutes and over 1080p from the file metadata with 422 and no charge', async () => {
    const { id, keys } = await h.account(100);
    const long = await makeVideo({ seconds: 240, width: 160, height: 120, fps: 2 });
    const r1 = await h.call('/api/v1/video-to-3d/jobs', formPost(keys.video, videoForm(long)));
    assert.equal(r1.status, 422);
    assert.match((await envelope(r1)).message, /3 minutes/);
    const uhd = await makeVideo({ seconds: 1, width: 3840, height: 2160, fps: 1 });
    const r2 = await h.call('/api/v1/video-to-3d/jobs', formPost(keys.video, videoForm(uhd)));
    assert.equal(r2.status, 422);
    assert.match((await envelope(r2)).message, /3840x2160.*1080p/);
    const portrait = await makeVideo({ seconds: 1, width: 1080, height: 1920, fps: 1 });
    assert.equal((await h.call('/api/v1/video-to-3d/jobs', formPost(keys.video, videoForm(portrait)))).status, 202);
    assert.equal((await h.ledger(id)).entries.length, 1);
  });

  // A Request in a browser carries no Content-Length (a forbidden header), so the browser sandbox
  // answers 413 once the streamed body passes the cap instead (the multipart tests check that).
  const lengthHeader = PLATFORM === 'browser' ? 'a browser Request has no Content-Length' : false;
  it('answers 413 from Content-Length alone, before reading a body over 500 MB', { skip: lengthHeader }, async () => {
    const { keys } = await h.account(100);
    const url = new URL(h.url + '/api/v1/video-to-3d/jobs');
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        url,
        {
          method: 'POST',
          headers: {
            'x-api-key': keys.video,
            'content-type': 'multipart/form-data; boundary=x',
            'content-length': String(600 * 1024 * 1024),
          },
        },
        (res) => {
          resolve(res.statusCode!);
          res.resume();
          req.destroy();
        },
      );
      req.on('error', reject);
      req.write('--x\r\n'); // a few bytes of a body that will never be sent whole
    });
    assert.equal(status, 413);
  });

  it('refuses a missing or misnamed file field, JSON bodies and unknown fields with 4xx and no charge', async () => {
    const { id, keys } = await h.account(100);
    const empty = new FormData();
    empty.set('note', 'hi');
    const r1 = await h.call('/api/v1/video-to-3d/jobs', formPost(keys.video, empty));
    assert.equal(r1.status, 400);
    const r2 = await h.call('/api/v1/video-to-3d/jobs', {
      method: 'POST',
      headers: { 'x-api-key': keys.video, 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(r2.status, 415);
    const text = new FormData();
    text.set('video_file', 'not a file');
    const r3 = await h.call('/api/v1/video-to-3d/jobs', formPost(keys.video, text));
    assert.equal(r3.status, 400);
    assert.match((await envelope(r3)).message, /file part/);
    assert.equal((await h.ledger(id)).entries.length, 0);
  });

  it('answers 402 before any work when the balance is below 20', async () => {
    const { id, keys } = await h.account(19);
    const r = await h.call('/api/v1/video-to-3d/jobs', formPost(keys.video, videoForm(clip)));
    assert.equal(r.status, 402);
    assert.equal((await envelope(r)).code, 'insufficient_credits');
    assert.equal((await h.ledger(id)).balance, 19);
  });

  it('answers 500 provider_error without a charge when creation fails at the provider', async () => {
    const { id, keys } = await h.account(100);
    await h.fault(id, 'create_error');
    const r = await h.call('/api/v1/video-to-3d/jobs', formPost(keys.video, videoForm(clip)));
    assert.equal(r.status, 500);
    assert.equal((await envelope(r)).code, 'provider_error');
    assert.equal((await h.ledger(id)).entries.length, 0);
    assert.equal((await h.call('/api/v1/video-to-3d/jobs', formPost(keys.video, videoForm(clip)))).status, 202);
  });
});

describe('video to 3D: the job state machine', () => {
  let h: Harness;
  let clip: Uint8Array;
  before(async () => {
    h = await startSandbox();
    clip = await makeVideo({ seconds: 2, width: 320, height: 240 });
  });
  after(() => h.close());

  async function create(key: string): Promise<string> {
    const r = await h.call('/api/v1/video-to-3d/jobs', formPost(key, videoForm(clip)));
    assert.equal(r.status, 202);
    return ((await r.json()) as any).data.job_id;
  }
  const poll = async (key: string, jobId: string) =>
    (await h.call(`/api/v1/video-to-3d/jobs/${jobId}`, { headers: { 'x-api-key': key } })).json() as Promise<any>;

  it('goes queued -> processing with stage-based progress -> succeeded with output', async () => {
    const { keys } = await h.account(100);
    const jobId = await create(keys.video);
    const seen: [string, number][] = [];
    for (let i = 0; i < 30; i++) {
      const { data } = await poll(keys.video, jobId);
      seen.push([data.status, data.progress]);
      if (data.status === 'succeeded') {
        assert.equal(data.progress, 100);
        assert.equal(data.error, null);
        assert.equal(data.output.kind, 'gaussian_splat_ply');
        assert.match(data.output.ply_url, new RegExp(`^/api/app/jobs/${jobId}/download\\?extract=ply&`));
        assert.match(data.output.archive_url, new RegExp(`^/api/app/jobs/${jobId}/download\\?`));
        break;
      }
      assert.equal(data.output, null);
      await h.advance(15_000);
      await h.sandbox.idle();
    }
    assert.equal(seen[0]![0], 'queued');
    assert.ok(seen.some(([s]) => s === 'processing'));
    assert.equal(seen.at(-1)![0], 'succeeded');
    const progress = seen.map(([, p]) => p);
    assert.deepEqual(
      progress,
      [...progress].sort((a, b) => a - b),
      'progress never goes back',
    );
    assert.ok(new Set(progress).size >= 4, `several stages: ${progress}`);
  });

  it('serves a standard 3DGS PLY and a zip holding the same PLY, both readable by three', async () => {
    const { keys } = await h.account(100);
    const data = await settle(h, `/api/v1/video-to-3d/jobs/${await create(keys.video)}`, keys.video);
    const ply = await h.call(data.output.ply_url);
    assert.equal(ply.status, 200);
    assert.equal(ply.headers.get('x-content-type-options'), 'nosniff');
    const plyBytes = new Uint8Array(await ply.arrayBuffer());
    const header = new TextDecoder().decode(plyBytes.subarray(0, 600));
    assert.match(header, /^ply\nformat binary_little_endian 1.0\nelement vertex \d+\nproperty float x\n/);
    assert.ok(!header.includes('\r'), 'LF line endings');
    const geometry = new GaussianSplatPLYLoader().parse(plyBytes.buffer);
    const positions = geometry.attributes['position']!.array as Float32Array;
    assert.ok(positions.length / 3 > 500, 'hundreds of splats');
    assert.ok(
      positions.some((v) => Math.abs(v) > 1),
      'positions are not zeroed',
    );
    const zip = await h.call(data.output.archive_url);
    assert.equal(zip.headers.get('content-type'), 'application/zip');
    const files = unzipSync(new Uint8Array(await zip.arrayBuffer()));
    assert.deepEqual(Object.keys(files), ['scene.ply']);
    assert.deepEqual(files['scene.ply'], plyBytes);
  });

  it('makes the scene from the video: different videos give different splats', async () => {
    const { keys } = await h.account(100);
    const other = await makeVideo({ seconds: 3, width: 320, height: 180 });
    const a = await settle(h, `/api/v1/video-to-3d/jobs/${await create(keys.video)}`, keys.video);
    const r = await h.call('/api/v1/video-to-3d/jobs', formPost(keys.video, videoForm(other)));
    const b = await settle(h, `/api/v1/video-to-3d/jobs/${((await r.json()) as any).data.job_id}`, keys.video);
    const pa = new Uint8Array(await (await h.call(a.output.ply_url)).arrayBuffer());
    const pb = new Uint8Array(await (await h.call(b.output.ply_url)).arrayBuffer());
    assert.notDeepEqual(pa, pb);
  });

  it('a failed job carries error.message and its 20 credits come back in the ledger', async () => {
    const { id, keys } = await h.account(100);
    await h.fault(id, 'job_fail');
    const data = await settle(h, `/api/v1/video-to-3d/jobs/${await create(keys.video)}`, keys.video);
    assert.equal(data.status, 'failed');
    assert.equal(data.output, null);
    assert.match(data.error.message, /film|Film/);
    const ledger = await h.ledger(id);
    assert.deepEqual(
      ledger.entries.map((e) => [e.type, e.amount, e.balance_after]),
      [
        ['charge', 20, 80],
        ['refund', 20, 100],
      ],
    );
  });

  it('refunds a failed job in the ledger even when nobody polls it', async () => {
    const { id, keys } = await h.account(100);
    await h.fault(id, 'job_fail');
    await create(keys.video);
    await h.advance(3_600_000);
    assert.equal((await h.ledger(id)).balance, 100);
  });

  it('archive links expire after about 60 minutes and every poll mints fresh ones', async () => {
    const { keys } = await h.account(100);
    const path = `/api/v1/video-to-3d/jobs/${await create(keys.video)}`;
    const first = await settle(h, path, keys.video);
    assert.equal((await h.call(first.output.archive_url)).status, 200);
    await h.advance(61 * 60_000);
    const stale = await h.call(first.output.archive_url);
    assert.equal(stale.status, 403);
    assert.match((await envelope(stale)).message, /Poll the job again/);
    const { data } = await poll(keys.video, path.split('/').pop()!);
    assert.notEqual(data.output.archive_url, first.output.archive_url);
    assert.equal((await h.call(data.output.archive_url)).status, 200);
    const forged = data.output.archive_url.replace(/sig=[^&]+/, 'sig=AAAA');
    assert.equal((await h.call(forged)).status, 403);
  });

  it('succeeded jobs expire (fault or retention): status expired, output null, downloads 410', async () => {
    const { id, keys } = await h.account(100);
    const path = `/api/v1/video-to-3d/jobs/${await create(keys.video)}`;
    const done = await settle(h, path, keys.video);
    await h.fault(id, 'expire');
    const { data } = await poll(keys.video, path.split('/').pop()!);
    assert.equal(data.status, 'expired');
    assert.equal(data.output, null);
    assert.match(data.error.message, /new job/);
    assert.equal((await h.call(done.output.archive_url)).status, 410);
    const path2 = `/api/v1/video-to-3d/jobs/${await create(keys.video)}`;
    await settle(h, path2, keys.video);
    await h.advance(8 * 24 * 3_600_000);
    assert.equal((await poll(keys.video, path2.split('/').pop()!)).data.status, 'expired');
  });

  it('a key sees only its own jobs: another account or another key gets 404', async () => {
    const a = await h.account(100);
    const b = await h.account(100);
    const jobId = await create(a.keys.video);
    const r = await h.call(`/api/v1/video-to-3d/jobs/${jobId}`, { headers: { 'x-api-key': b.keys.video } });
    assert.equal(r.status, 404);
    assert.equal((await envelope(r)).code, 'not_found');
    assert.equal(
      (await h.call(`/api/v1/video-to-3d/jobs/job_doesnotexist`, { headers: { 'x-api-key': a.keys.video } })).status,
      404,
    );
  });
});
