/**
 * Sample pictures drawn in the browser for the demos and stories of <headshot-studio> and
 * <bg-tool> (no binary fixtures in the repository): a head-and-shoulders selfie and a product
 * photo on a plain backdrop.
 */
async function draw(
  width: number,
  height: number,
  type: 'image/jpeg' | 'image/png',
  name: string,
  paint: (ctx: OffscreenCanvasRenderingContext2D) => void,
): Promise<File> {
  const canvas = new OffscreenCanvas(width, height);
  const ctx = canvas.getContext('2d')!;
  paint(ctx);
  return new File([await canvas.convertToBlob({ type, quality: 0.9 })], name, { type });
}

/** A 768x1024 selfie: head and shoulders, front-facing, even light. */
export function sampleSelfie(): Promise<File> {
  return draw(768, 1024, 'image/jpeg', 'selfie.jpg', (ctx) => {
    const bg = ctx.createLinearGradient(0, 0, 0, 1024);
    bg.addColorStop(0, '#d9dde3');
    bg.addColorStop(1, '#b8bfc9');
    ctx.fillStyle = bg;
    ctx.fillRect(0, 0, 768, 1024);
    ctx.fillStyle = '#2d3e5c'; // shoulders
    ctx.beginPath();
    ctx.moveTo(90, 1024);
    ctx.bezierCurveTo(110, 800, 250, 720, 384, 715);
    ctx.bezierCurveTo(518, 720, 658, 800, 678, 1024);
    ctx.fill();
    ctx.fillStyle = '#d9a27e'; // neck
    ctx.fillRect(334, 560, 100, 180);
    ctx.beginPath(); // face
    ctx.ellipse(384, 430, 150, 190, 0, 0, Math.PI * 2);
    ctx.fill();
    ctx.fillStyle = '#3b2a20'; // hair
    ctx.beginPath();
    ctx.ellipse(384, 330, 165, 120, 0, Math.PI, Math.PI * 2);
    ctx.fill();
    ctx.fillStyle = '#2a1d16'; // eyes, brows, mouth
    for (const x of [325, 443]) {
      ctx.beginPath();
      ctx.ellipse(x, 420, 16, 10, 0, 0, Math.PI * 2);
      ctx.fill();
      ctx.fillRect(x - 28, 385, 56, 8);
    }
    ctx.strokeStyle = '#8c4a3c';
    ctx.lineWidth = 8;
    ctx.beginPath();
    ctx.arc(384, 500, 50, 0.15 * Math.PI, 0.85 * Math.PI);
    ctx.stroke();
  });
}

/** An 800x600 product photo: a red mug on a light grey backdrop. */
export function sampleProduct(): Promise<File> {
  return draw(800, 600, 'image/png', 'mug.png', (ctx) => {
    ctx.fillStyle = '#e4e7eb';
    ctx.fillRect(0, 0, 800, 600);
    ctx.fillStyle = '#c0392b';
    ctx.beginPath();
    ctx.roundRect(270, 170, 230, 290, 24);
    ctx.fill();
    ctx.lineWidth = 34;
    ctx.strokeStyle = '#c0392b';
    ctx.beginPath();
    ctx.arc(505, 310, 70, -Math.PI / 2, Math.PI / 2);
    ctx.stroke();
    ctx.fillStyle = '#e8776b';
    ctx.fillRect(300, 200, 30, 220);
  });
}
