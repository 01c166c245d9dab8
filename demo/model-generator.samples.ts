/**
 * Sample photos for <model-generator>'s demo and stories, drawn in the browser (no binary fixtures
 * in the repository): one object (a teapot) from the front and from the side on a plain backdrop,
 * and a photo too large to send as it is.
 */
async function draw(name: string, paint: (ctx: OffscreenCanvasRenderingContext2D) => void, size = 768): Promise<File> {
  const canvas = new OffscreenCanvas(size, size);
  const ctx = canvas.getContext('2d')!;
  ctx.fillStyle = '#e6e8eb';
  ctx.fillRect(0, 0, size, size);
  const shadow = ctx.createRadialGradient(384, 640, 10, 384, 640, 260);
  shadow.addColorStop(0, 'rgba(0,0,0,0.25)');
  shadow.addColorStop(1, 'rgba(0,0,0,0)');
  ctx.fillStyle = shadow;
  ctx.fillRect(0, 520, size, 248);
  paint(ctx);
  return new File([await canvas.convertToBlob({ type: 'image/png' })], name, { type: 'image/png' });
}

const body = (ctx: OffscreenCanvasRenderingContext2D, rx: number) => {
  const g = ctx.createLinearGradient(384 - rx, 0, 384 + rx, 0);
  g.addColorStop(0, '#1f5f8b');
  g.addColorStop(0.45, '#3d8fc7');
  g.addColorStop(1, '#15405e');
  ctx.fillStyle = g;
  ctx.beginPath();
  ctx.ellipse(384, 440, rx, 190, 0, 0, Math.PI * 2);
  ctx.fill();
  ctx.fillStyle = '#15405e';
  ctx.beginPath();
  ctx.ellipse(384, 262, 70, 26, 0, 0, Math.PI * 2);
  ctx.fill();
  ctx.beginPath();
  ctx.arc(384, 228, 18, 0, Math.PI * 2);
  ctx.fill();
};

/** The teapot from the front (spout left, handle right) and from the side (round body only). */
export async function sampleViews(): Promise<File[]> {
  const front = await draw('teapot-front.png', (ctx) => {
    ctx.strokeStyle = '#1f5f8b';
    ctx.lineWidth = 30;
    ctx.beginPath();
    ctx.arc(600, 430, 80, -Math.PI / 2, Math.PI / 2);
    ctx.stroke();
    ctx.fillStyle = '#2a77a8';
    ctx.beginPath();
    ctx.moveTo(220, 470);
    ctx.quadraticCurveTo(120, 440, 95, 320);
    ctx.lineTo(130, 310);
    ctx.quadraticCurveTo(160, 410, 240, 410);
    ctx.fill();
    body(ctx, 220);
  });
  const side = await draw('teapot-side.png', (ctx) => body(ctx, 200));
  return [front, side];
}

/** A 13 MB JPEG (a small picture with padding after its end marker): over the 12 MB limit, fixable by a downscale. */
export async function oversizedPhoto(): Promise<File> {
  const [front] = await sampleViews();
  const bitmap = await createImageBitmap(front!);
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  canvas.getContext('2d')!.drawImage(bitmap, 0, 0);
  const jpeg = await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.9 });
  return new File([jpeg, new Uint8Array(13 * 1024 * 1024)], 'teapot-camera-original.jpg', { type: 'image/jpeg' });
}
