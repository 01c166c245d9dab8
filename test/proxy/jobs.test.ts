/**
 * Jobs through the proxy: sealed handles bound to subject and capability, download tickets that
 * work without a token and expire, fresh links after the upstream's expire, refunds to the budget.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { envelope, startSandbox, type Harness } from '../sandbox/harness.js';
import { makeVideo } from '../fixtures/media.js';
import { bearer, jsonInit, pollUntilDone, startStack, videoInit, type Stack } from './harness.js';

describe('proxy jobs', () => {
  let sandbox: Harness;
  let s: Stack;
  let alice: string;
  let bob: string;
  let video: Uint8Array;
  before(async () => {
    sandbox = await startSandbox({ speed: 1 });
    s = await startStack({ sandboxHarness: sandbox });
    alice = await s.login('alice', 200);
    bob = await s.login('bob', 200);
    video = await makeVideo({ seconds: 2, width: 320, height: 240 });
  });
  after(async () => {
    await s.close();
    await sandbox.close();
  });

  it('answers a handle, never the upstream job id, and polls to a result with working ticket URLs', async () => {
    const created = await s.call('/mediakit/api/v1/video-to-3d/jobs', videoInit(alice, video));
    assert.equal(created.status, 202);
    const body = (await created.json()) as { data: { job_id: string } };
    const handle = body.data.job_id;
    const [upstream] = (await sandbox.ledger(s.accountId)).entries.map((e) => e.job_id).filter(Boolean) as string[];
    assert.ok(upstream?.startsWith('job_'));
    assert.ok(!handle.includes(upstream!) && !handle.startsWith('job_'));
    const job = await pollUntilDone(s, `/mediakit/api/v1/video-to-3d/jobs/${handle}`, alice);
    assert.equal(job['status'], 'succeeded');
    assert.equal(job['job_id'], handle);
    assert.ok(!JSON.stringify(job).includes(upstream!), 'no upstream id anywhere in the job');
    const { ply_url, archive_url, links_expire_at } = job['output'];
    assert.match(ply_url, /^\/mediakit\/files\/[A-Za-z0-9_-]+\/scene\.ply$/);
    assert.ok(Date.parse(links_expire_at) > Date.now());
    // A ticket needs no token: it works in <a>, <video> and fetch alike.
    const ply = await s.call(ply_url);
    assert.equal(ply.status, 200);
    assert.equal(ply.headers.get('content-type'), 'application/octet-stream');
    assert.equal(ply.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(ply.headers.get('cache-control'), 'no-store');
    assert.match(ply.headers.get('content-disposition') ?? '', /attachment; filename="scene.ply"/);
    assert.match(new TextDecoder().decode((await ply.arrayBuffer()).slice(0, 3)), /^ply/);
    const zip = await s.call(archive_url);
    assert.equal(zip.headers.get('content-type'), 'application/zip');
    assert.deepEqual([...new Uint8Array(await zip.arrayBuffer()).slice(0, 2)], [0x50, 0x4b]);
    // The mirrored endpoint takes the handle and the token, for fetch users.
    const mirrored = await s.call(`/mediakit/api/app/jobs/${handle}/download?extract=ply`, { headers: bearer(alice) });
    assert.equal(mirrored.status, 200);
    assert.equal((await mirrored.arrayBuffer()).byteLength > 1000, true);

    // Another subject, or another capability's route, sees no such job; an altered handle is no job.
    const other = await s.call(`/mediakit/api/v1/video-to-3d/jobs/${handle}`, { headers: bearer(bob) });
    assert.equal(other.status, 404);
    assert.match((await envelope(other)).message, /this session/);
    const wrongKind = await s.call(`/mediakit/api/v1/3d/jobs/${handle}`, { headers: bearer(alice) });
    assert.equal(wrongKind.status, 404);
    const altered = handle.slice(0, 20) + (handle[20] === 'A' ? 'B' : 'A') + handle.slice(21);
    assert.equal(
      (await s.call(`/mediakit/api/v1/video-to-3d/jobs/${altered}`, { headers: bearer(alice) })).status,
      404,
    );

    // Upstream links expire after about 60 minutes: the old ticket says so, a new poll gives fresh ones.
    await sandbox.advance(61 * 60_000);
    const stale = await s.call(ply_url);
    assert.equal(stale.status, 403);
    assert.equal((await envelope(stale)).code, 'link_expired');
    const again = await pollUntilDone(s, `/mediakit/api/v1/video-to-3d/jobs/${handle}`, alice);
    assert.notEqual(again['output'].ply_url, ply_url);
    assert.equal((await s.call(again['output'].ply_url)).status, 200);
  });

  it('serves 3D results through tickets with fixed types, a Location of the handle, and download=1', async () => {
    const created = await s.call(
      '/mediakit/api/v1/3d/jobs',
      jsonInit(alice, { mode: 'text', prompt: 'a small red chair', quality: 'fast', seed: 7 }),
    );
    assert.equal(created.status, 202);
    const { data } = (await created.json()) as { data: Record<string, any> };
    assert.equal(created.headers.get('location'), `/mediakit/api/v1/3d/jobs/${data['job_id']}`);
    assert.equal(data['seed'], 7);
    const reference = await s.call(data['reference_image_url']);
    assert.equal(reference.headers.get('content-type'), 'image/png');
    const job = await pollUntilDone(s, created.headers.get('location')!, alice);
    assert.equal(job['status'], 'succeeded');
    assert.ok(job['output'].stats.triangles > 0);
    const glb = await s.call(job['output'].model_url);
    assert.equal(glb.headers.get('content-type'), 'model/gltf-binary');
    assert.equal(new TextDecoder().decode((await glb.arrayBuffer()).slice(0, 4)), 'glTF');
    const attached = await s.call(job['output'].model_url + '?download=1');
    assert.match(attached.headers.get('content-disposition') ?? '', /^attachment; filename="model.glb"/);
    await attached.arrayBuffer();
    const turntable = await s.call(job['output'].turntable_url);
    assert.equal(turntable.headers.get('content-type'), 'video/mp4');
    assert.equal(turntable.headers.get('content-security-policy'), "default-src 'none'; sandbox");
    await turntable.arrayBuffer();
    const provider = await s.call(job['output'].provider_model_url);
    assert.equal(provider.status, 200);
    await provider.arrayBuffer();
  });

  it('expires its own tickets, and a forged or altered ticket is refused', async () => {
    const short = await startStack({ sandboxHarness: sandbox, proxy: { downloadTtlSeconds: 1 } });
    try {
      const t = await short.login('dave');
      const created = await short.call(
        '/mediakit/api/v1/3d/jobs',
        jsonInit(t, { mode: 'text', prompt: 'a blue mug', quality: 'fast' }),
      );
      const { data } = (await created.json()) as { data: Record<string, any> };
      const url = data['reference_image_url'] as string;
      assert.equal((await short.call(url)).status, 200);
      const altered = url.replace(/files\/(.{10})./, (m, a) => `files/${a}${m.at(-1) === 'A' ? 'B' : 'A'}`);
      assert.equal((await short.call(altered)).status, 403);
      await new Promise((r) => setTimeout(r, 1100));
      const late = await short.call(url);
      assert.equal(late.status, 403);
      assert.match((await envelope(late)).message, /expired/);
    } finally {
      await short.close();
    }
  });

  it("gives a failed job's credits back to the session budget, once", async () => {
    const carol = await s.login('carol', 25);
    await sandbox.fault(s.accountId, 'job_fail');
    const created = await s.call('/mediakit/api/v1/video-to-3d/jobs', videoInit(carol, video));
    assert.equal(created.status, 202);
    assert.equal(created.headers.get('x-credits-remaining'), '5');
    const { data } = (await created.json()) as { data: { job_id: string } };
    const job = await pollUntilDone(s, `/mediakit/api/v1/video-to-3d/jobs/${data.job_id}`, carol);
    assert.equal(job['status'], 'failed');
    assert.match(job['error'].message, /refunded/);
    for (let i = 0; i < 3; i++)
      await s.call(`/mediakit/api/v1/video-to-3d/jobs/${data.job_id}`, { headers: bearer(carol) });
    const session = (await (await s.call('/mediakit/session', { headers: bearer(carol) })).json()) as {
      data: { budget: { remaining: number } };
    };
    assert.equal(session.data.budget.remaining, 25);
  });
});
