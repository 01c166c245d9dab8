/**
 * Text mode's square reference image in Node: the layout from the prompt and seed is
 * ./reference-layout.ts (shared with the browser), drawn here as SVG and rasterised by sharp.
 */
import sharp from 'sharp';
import { BODY_GRADIENT, REFERENCE_BACKGROUND, conePoints, hashString, referenceLayout } from './reference-layout.js';

export { hashString };

export async function renderReference(prompt: string, seed: number, size: number): Promise<Uint8Array> {
  const layout = referenceLayout(prompt, seed, size);
  const { cx, cy, r, kind, body, accent, shadow } = layout;
  const shapes: string[] = [];
  if (kind === 0) shapes.push(`<circle cx="${cx}" cy="${cy}" r="${r}" fill="url(#body)"/>`);
  else if (kind === 1)
    shapes.push(
      `<rect x="${cx - r}" y="${cy - r}" width="${2 * r}" height="${2 * r}" rx="${r * 0.2}" fill="url(#body)"/>`,
    );
  else
    shapes.push(
      `<polygon points="${conePoints(layout)
        .map(([x, y]) => `${x},${y}`)
        .join(' ')}" fill="url(#body)"/>`,
    );
  for (const spot of layout.spots)
    shapes.push(`<circle cx="${spot.x}" cy="${spot.y}" r="${spot.r}" fill="${accent}" opacity="0.8"/>`);
  const stops = BODY_GRADIENT.stops
    .map(
      (s) =>
        `<stop offset="${s.offset}" stop-color="${s.colour === 'body' ? body : s.colour}"${s.opacity === 1 ? '' : ` stop-opacity="${s.opacity}"`}/>`,
    )
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}">
<defs><radialGradient id="body" cx="${BODY_GRADIENT.cx * 100}%" cy="${BODY_GRADIENT.cy * 100}%" r="${BODY_GRADIENT.r * 100}%">${stops}</radialGradient></defs>
<rect width="100%" height="100%" fill="${REFERENCE_BACKGROUND}"/>
<ellipse cx="${shadow.cx}" cy="${shadow.cy}" rx="${shadow.rx}" ry="${shadow.ry}" fill="#000" opacity="0.15"/>
${shapes.join('\n')}
</svg>`;
  return new Uint8Array(await sharp(Buffer.from(svg)).png().toBuffer());
}
