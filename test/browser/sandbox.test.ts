/**
 * The sandbox seen from real Chromium over real HTTP (mounted in the test server at /sandbox):
 * what the demo, Storybook and the browser layers will rely on.
 */
import { expect } from '@open-wc/testing';

const base = '/sandbox';

async function account(credits: number): Promise<{ account_id: string; keys: Record<string, string> }> {
  const r = await fetch(`${base}/__sandbox/accounts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ credits }),
  });
  return r.json();
}

/** A selfie-like PNG drawn on a canvas: a plain backdrop and one subject. */
async function canvasPhoto(): Promise<Blob> {
  const canvas = new OffscreenCanvas(240, 300);
  const ctx = canvas.getContext('2d')!;
  ctx.fillStyle = '#dde3ea';
  ctx.fillRect(0, 0, 240, 300);
  ctx.fillStyle = '#c0561b';
  ctx.beginPath();
  ctx.ellipse(120, 170, 60, 90, 0, 0, Math.PI * 2);
  ctx.fill();
  return canvas.convertToBlob({ type: 'image/png' });
}

describe('sandbox over HTTP from the browser', () => {
  it('headshots from a multipart upload render as images the browser decodes', async () => {
    const { keys } = await account(20);
    const form = new FormData();
    form.set('image_file', await canvasPhoto(), 'me.png');
    form.set('variants', '0,3');
    const r = await fetch(`${base}/api/v1/headshot`, {
      method: 'POST',
      headers: { 'x-api-key': keys['headshot']! },
      body: form,
    });
    expect(r.status).to.equal(200);
    expect(r.headers.get('x-credits-charged')).to.equal('5');
    const body = await r.json();
    expect(body.data.variants.map((v: { variant: number }) => v.variant)).to.deep.equal([0, 3]);
    const img = new Image();
    img.src = `data:image/png;base64,${body.data.variants[0].image_base64}`;
    await img.decode();
    expect(img.naturalWidth).to.equal(body.data.variants[0].width);
  });

  it('background removal answers a PNG with real transparency', async () => {
    const { keys } = await account(5);
    const form = new FormData();
    form.set('image_file', await canvasPhoto(), 'photo.png');
    const r = await fetch(`${base}/api/v1`, {
      method: 'POST',
      headers: { authorization: `Bearer ${keys['imageTools']}` },
      body: form,
    });
    expect(r.headers.get('content-type')).to.equal('image/png');
    const bitmap = await createImageBitmap(await r.blob());
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const ctx = canvas.getContext('2d')!;
    ctx.drawImage(bitmap, 0, 0);
    expect(ctx.getImageData(2, 2, 1, 1).data[3]).to.equal(0);
    expect(ctx.getImageData(120, 170, 1, 1).data[3]).to.equal(255);
  });

  it('refusals are JSON envelopes the browser can read', async () => {
    const r = await fetch(`${base}/api/v1/account`);
    expect(r.status).to.equal(401);
    const body = await r.json();
    expect(body.error.code).to.equal('unauthorized');
  });
});

describe('sandbox artifacts in the browser', () => {
  it('a 3D job turntable plays in a <video> and the model downloads as GLB', async () => {
    const { keys } = await account(10);
    const created = await fetch(`${base}/api/v1/3d/jobs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${keys['generate']}`, 'content-type': 'application/json' },
      body: JSON.stringify({ mode: 'text', prompt: 'a green cube', quality: 'fast' }),
    });
    expect(created.status).to.equal(202);
    const poll = created.headers.get('location')!;
    let data: { status: string; output: { turntable_url: string; model_url: string } };
    for (;;) {
      await fetch(`${base}/__sandbox/clock`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"advance_ms":60000}',
      });
      data = (await (await fetch(base + poll, { headers: { 'x-api-key': keys['generate']! } })).json()).data;
      if (data.status !== 'queued' && data.status !== 'processing') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(data.status).to.equal('succeeded');
    const video = document.createElement('video');
    video.muted = true;
    video.src = base + data.output.turntable_url;
    document.body.append(video);
    await new Promise((resolve, reject) => {
      video.addEventListener('loadeddata', resolve, { once: true });
      video.addEventListener('error', () => reject(new Error(`video error ${video.error?.code}`)), { once: true });
    });
    expect(video.videoWidth).to.equal(128);
    expect(video.duration).to.be.greaterThan(0.5);
    video.remove();
    const glb = new Uint8Array(await (await fetch(base + data.output.model_url)).arrayBuffer());
    expect(new TextDecoder().decode(glb.subarray(0, 4))).to.equal('glTF');
  });
});
