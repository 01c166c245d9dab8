/**
 * The platform-free half of headshot variants (./headshot.ts for Node, ../browser/images.ts for the
 * browser): each style's look, how the selfie's subject is framed, and the per-slot variations.
 * The person's pixels are kept (the spec: "the person is never changed"): the subject is cut out
 * and composed on the style's backdrop, with the slot's variation:
 * 0 exact style template; 1 warmer light and a three-quarter turn (a slight perspective shear);
 * 2 alternate outfit colour (the lower third of the subject re-tinted); 3 tighter crop with a
 * neutral grade.
 */
import type { HeadshotStyle, VariantSlot } from '../../api/index.js';
import type { Cutout } from '../platform.js';

export const HEADSHOT_SIZE = 512;

export interface StyleLook {
  /** Backdrop gradient centre and edge. */
  backdrop: [string, string];
  /** Outfit tint for the lower third; slot 2 uses `altOutfit`. */
  outfit: string;
  altOutfit: string;
  saturation: number;
  brightness: number;
}

export const LOOKS: Record<HeadshotStyle, StyleLook> = {
  corporate: {
    backdrop: ['#9a9ea3', '#5d6166'],
    outfit: '#36393d',
    altOutfit: '#1f2f4a',
    saturation: 0.9,
    brightness: 1,
  },
  'business-casual': {
    backdrop: ['#f4efe6', '#c9d6df'],
    outfit: '#6d8fb3',
    altOutfit: '#a35d4f',
    saturation: 1.05,
    brightness: 1.08,
  },
  bewerbung: {
    backdrop: ['#f2f2f0', '#dcdcd8'],
    outfit: '#2b2d33',
    altOutfit: '#4a3b2a',
    saturation: 0.95,
    brightness: 1.04,
  },
  creative: {
    backdrop: ['#d9a066', '#7a4b2a'],
    outfit: '#8a5a3b',
    altOutfit: '#5b6e3a',
    saturation: 1.1,
    brightness: 1.02,
  },
};

/** The backdrop's radial gradient from `backdrop[0]` to `backdrop[1]`: centre and radius, percent of the square. */
export const BACKDROP_GRADIENT = { cx: 50, cy: 35, r: 75 } as const;

/** Slot 1's three-quarter turn: x' = a·x + c·y (one side compressed), scaled back to the square. */
export const TURN = { a: 0.92, c: 0.06 } as const;

/** Slot 1's warmer light: a colour matrix (rows r, g, b). */
export const WARM: [[number, number, number], [number, number, number], [number, number, number]] = [
  [1.1, 0.02, 0],
  [0, 1.0, 0],
  [0, 0, 0.85],
];

/** The grade a slot applies to the person: brightness and saturation multipliers. */
export function slotGrade(look: StyleLook, slot: VariantSlot): { brightness: number; saturation: number } {
  if (slot === 1) return { brightness: look.brightness * 1.03, saturation: look.saturation * 1.1 };
  if (slot === 3) return { brightness: 1, saturation: look.saturation * 0.85 };
  return { brightness: look.brightness, saturation: look.saturation };
}

/**
 * Head and shoulders: the square of the cut-out image (full-size pixels, it may reach past the
 * image's edges: padding is transparent) that becomes the variant, framing the subject's box with
 * some headroom; slot 3 crops tighter.
 */
export function headshotFrame(cut: Cutout, slot: VariantSlot): { left: number; top: number; side: number } {
  const subjectBox = cut.box ?? { left: 0, top: 0, width: cut.width, height: cut.height };
  const margin = slot === 3 ? 0.02 : 0.12;
  const side = Math.round(Math.max(subjectBox.width, subjectBox.height) * (1 + margin * 2) * (slot === 3 ? 0.8 : 1));
  const cx = subjectBox.left + subjectBox.width / 2;
  const top = Math.round(subjectBox.top - side * margin);
  const left = Math.round(cx - side / 2);
  return { left, top: Math.max(0, top), side };
}

/** Outfit: tints the subject's lower third of a square RGBA layer in place (slot 2 in the alternate colour). */
export function tintOutfit(
  raw: Uint8Array | Uint8ClampedArray,
  size: number,
  look: StyleLook,
  slot: VariantSlot,
): void {
  const tint = hex(slot === 2 ? look.altOutfit : look.outfit);
  for (let y = Math.floor(size * 0.72); y < size; y++) {
    for (let x = 0; x < size; x++) {
      const i = (y * size + x) * 4;
      const a = raw[i + 3]! / 255;
      if (a === 0) continue;
      const lum = (raw[i]! * 0.3 + raw[i + 1]! * 0.59 + raw[i + 2]! * 0.11) / 255;
      const mix = 0.55;
      for (let c = 0; c < 3; c++) raw[i + c] = Math.round(raw[i + c]! * (1 - mix) + tint[c]! * (0.6 + lum * 0.6) * mix);
    }
  }
}

export function hex(color: string): [number, number, number] {
  const n = parseInt(color.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}
