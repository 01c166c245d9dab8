/**
 * The platform-free half of text mode's square reference image (spec, 3D generation), shared by
 * Node (./reference.ts, drawn as SVG by sharp) and the browser (../browser/images.ts, drawn on a
 * canvas): a still life whose palette and composition come from the prompt's words and the seed.
 * Colour words in the prompt pick the object's colour, so "a red chair" looks red.
 */
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

export const REFERENCE_BACKGROUND = '#f3f3f1';

/**
 * The object's fill: a radial gradient over the shape's bounding box (centre and radius as
 * fractions of the box) from a white highlight to the body colour.
 */
export const BODY_GRADIENT = {
  cx: 0.4,
  cy: 0.35,
  r: 0.7,
  stops: [
    { offset: 0, colour: '#ffffff', opacity: 0.55 },
    { offset: 0.35, colour: 'body', opacity: 1 },
    { offset: 1, colour: 'body', opacity: 0.85 },
  ],
} as const;

export interface ReferenceLayout {
  size: number;
  /** CSS colours (`#rrggbb` or `hsl(h,s%,l%)`). */
  body: string;
  accent: string;
  /** The object: 0 a sphere, 1 a rounded cube, 2 a cone (triangle). */
  kind: 0 | 1 | 2;
  cx: number;
  cy: number;
  r: number;
  /** Accent spots on the object (opacity 0.8). */
  spots: { x: number; y: number; r: number }[];
  /** The shadow under the object: an ellipse, black at opacity 0.15. */
  shadow: { cx: number; cy: number; rx: number; ry: number };
}

export function referenceLayout(prompt: string, seed: number, size: number): ReferenceLayout {
  const random = mulberry32(seed ^ hashString(prompt));
  const words = prompt.toLowerCase().match(/[a-z]+/g) ?? [];
  const named = words.map((w) => COLOUR_WORDS[w]).find(Boolean);
  const hue = Math.floor(random() * 360);
  const body = named ?? `hsl(${hue},55%,50%)`;
  const accent = `hsl(${(hue + 150) % 360},45%,60%)`;
  const kind = (hashString(words.join(' ')) % 3) as 0 | 1 | 2;
  const cx = size / 2,
    cy = size * 0.55,
    r = size * (0.22 + random() * 0.08);
  const spots = Array.from({ length: 3 }, () => ({
    x: cx + (random() - 0.5) * r * 1.2,
    y: cy + (random() - 0.5) * r * 1.2,
    r: r * (0.08 + random() * 0.12),
  }));
  return { size, body, accent, kind, cx, cy, r, spots, shadow: { cx, cy: cy + r * 1.05, rx: r * 1.1, ry: r * 0.18 } };
}

/** The triangle's corners (kind 2). */
export function conePoints(layout: ReferenceLayout): [number, number][] {
  const { cx, cy, r } = layout;
  return [
    [cx, cy - r * 1.2],
    [cx + r, cy + r],
    [cx - r, cy + r],
  ];
}

export function hashString(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}
