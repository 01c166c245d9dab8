/**
 * Text mode's square reference image, rendered before reconstruction (spec, 3D generation):
 * a still life whose palette and composition come from the prompt's words and the seed. Colour
 * words in the prompt pick the object's colour, so "a red chair" looks red.
 */
import sharp from 'sharp';
import { mulberry32 } from '../rng.js';

const COLOUR_WORDS: Record<string, string> = {
  red: '#c0392b',
  orange: '#e67e22',
  yellow: '#f1c40f',
  green: '#27ae60',
  blue: '#2e86de',
  purple: '#8e44ad',
  pink: '#e84393',
  brown: '#8d5524',
  black: '#222222',
  white: '#f5f5f5',
  grey: '#7f8c8d',
  gray: '#7f8c8d',
  gold: '#d4a017',
  silver: '#c0c0c0',
};

export async function renderReference(prompt: string, seed: number, size: number): Promise<Uint8Array> {
  const random = mulberry32(seed ^ hashString(prompt));
  const words = prompt.toLowerCase().match(/[a-z]+/g) ?? [];
  const named = words.map((w) => COLOUR_WORDS[w]).find(Boolean);
  const hue = Math.floor(random() * 360);
  const body = named ?? `hsl(${hue},55%,50%)`;
  const accent = `hsl(${(hue + 150) % 360},45%,60%)`;
  const shapes: string[] = [];
  const kind = hashString(words.join(' ')) % 3;
  const cx = size / 2,
    cy = size * 0.55,
    r = size * (0.22 + random() * 0.08);
  if (kind === 0) shapes.push(`<circle cx="${cx}" cy="${cy}" r="${r}" fill="url(#body)"/>`);
  else if (kind === 1)
    shapes.push(
      `<rect x="${cx - r}" y="${cy - r}" width="${2 * r}" height="${2 * r}" rx="${r * 0.2}" fill="url(#body)"/>`,
    );
  else
    shapes.push(`<polygon points="${cx},${cy - r * 1.2} ${cx + r},${cy + r} ${cx - r},${cy + r}" fill="url(#body)"/>`);
  for (let i = 0; i < 3; i++) {
    shapes.push(
      `<circle cx="${cx + (random() - 0.5) * r * 1.2}" cy="${cy + (random() - 0.5) * r * 1.2}" r="${r * (0.08 + random() * 0.12)}" fill="${accent}" opacity="0.8"/>`,
    );
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}">
<defs><radialGradient id="body" cx="40%" cy="35%" r="70%"><stop offset="0" stop-color="#ffffff" stop-opacity="0.55"/><stop offset="0.35" stop-color="${body}"/><stop offset="1" stop-color="${body}" stop-opacity="0.85"/></radialGradient></defs>
<rect width="100%" height="100%" fill="#f3f3f1"/>
<ellipse cx="${cx}" cy="${cy + r * 1.05}" rx="${r * 1.1}" ry="${r * 0.18}" fill="#000" opacity="0.15"/>
${shapes.join('\n')}
</svg>`;
  return new Uint8Array(await sharp(Buffer.from(svg)).png().toBuffer());
}

export function hashString(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}
