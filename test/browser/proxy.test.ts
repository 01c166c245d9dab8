/**
 * The session-token proxy from real Chromium over real HTTP, as the elements will use it: the
 * dev stack's demo cookie names the visitor, the token authorizes calls, job outputs are ticket
 * URLs that work in <video>, <a> and fetch, and the page never sees a key or an upstream id.
 */
import { expect } from '@open-wc/testing';

const base = '/mediakit';

async function session(): Promise<{ token: string; budget: { remaining: number } }> {
  const r = await fetch(`${base}/session`, { method: 'POST' });
  expect(r.status).to.equal(200);
  return (await r.json()).data;
}

describe('proxy from the browser', () => {
  it('gives this browser a session from its first-party cookie, the same subject each time', async () => {
    const first = await session();
    const second = await session();
    expect(first.token).to.not.equal(second.token);
    const image = new OffscreenCanvas(64, 64);
    const ctx = image.getContext('2d')!;
    ctx.fillStyle = '#c0561b';
    ctx.fillRect(16, 16, 32, 32);
    const form = new FormData();
    form.set('image_file', await image.convertToBlob({ type: 'image/png' }), 'x.png');
    const r = await fetch(`${base}/api/v1`, {
      method: 'POST',
      headers: { authorization: `Bearer ${first.token}`, 'idempotency-key': crypto.randomUUID() },
      body: form,
    });
    expect(r.status).to.equal(200);
    expect(r.headers.get('content-type')).to.equal('image/png');
    expect(Number(r.headers.get('x-credits-remaining'))).to.equal(first.budget.remaining - 1);
    // The other token is the same visitor: it sees the credit spent.
    const view = await (
      await fetch(`${base}/session`, { headers: { authorization: `Bearer ${second.token}` } })
    ).json();
    expect(view.data.budget.remaining).to.equal(first.budget.remaining - 1);
    expect(document.cookie).to.not.contain('mediakit_demo', 'the visitor cookie is HttpOnly');
  });

  it('plays a 3D job turntable from its ticket URL and shows no upstream id', async () => {
    const { token } = await session();
    const auth = { authorization: `Bearer ${token}` };
    const created = await fetch(`${base}/api/v1/3d/jobs`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ mode: 'text', prompt: 'a green cube', quality: 'fast' }),
    });
    expect(created.status).to.equal(202);
    const poll = created.headers.get('location')!;
    expect(poll.startsWith(`${base}/api/v1/3d/jobs/`)).to.equal(true);
    let text: string;
    let data: { status: string; output: { turntable_url: string; model_url: string } };
    for (;;) {
      // The control plane answers this page because the test server gave it the dev token cookie.
      const moved = await fetch('/sandbox/__sandbox/clock', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"advance_ms":60000}',
      });
      expect(moved.ok, `the sandbox clock: ${moved.status}`).to.equal(true);
      text = await (await fetch(poll, { headers: auth })).text();
      data = JSON.parse(text).data;
      if (data.status !== 'queued' && data.status !== 'processing') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(data.status).to.equal('succeeded');
    expect(text).to.not.match(/job_[A-Za-z0-9_-]{8}/);
    expect(text).to.not.match(/g3_live_|v3_live_|hs_live_|ut_live_/);
    const video = document.createElement('video');
    video.muted = true;
    video.src = data.output.turntable_url;
    document.body.append(video);
    await new Promise((resolve, reject) => {
      video.addEventListener('loadeddata', resolve, { once: true });
      video.addEventListener('error', () => reject(new Error(`video error ${video.error?.code}`)), { once: true });
    });
    expect(video.videoWidth).to.equal(128);
    video.remove();
    const glb = await fetch(data.output.model_url);
    expect(glb.headers.get('content-type')).to.equal('model/gltf-binary');
    expect(new TextDecoder().decode(new Uint8Array(await glb.arrayBuffer()).subarray(0, 4))).to.equal('glTF');
  });
});
