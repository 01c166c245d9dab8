/**
 * The sandbox seen from real Chromium over real HTTP (mounted in the test server at /sandbox):
 * what the demo, Storybook and the browser layers will rely on.
 */
import { expect } from '@open-wc/testing';

const base = '/sandbox';

async function account(credits: number): Promise<{ account_id: string; keys: Record<string, string> }> {
  const r = await fetch(`${base}/__sandbox/accounts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ credits }) });
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
    const r = await fetch(`${base}/api/v1/headshot`, { method: 'POST', headers: { 'x-api-key': keys['headshot']! }, body: form });
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
    const r = await fetch(`${base}/api/v1`, { method: 'POST', headers: { authorization: `Bearer ${keys['imageTools']}` }, body: form });
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
