/**
 * Headshot variants made from the selfie with sharp. The person's pixels are kept (the spec: "the
 * person is never changed"): the subject is cut out with the background remover and composed on
 * the style's backdrop, with the slot's variation:
 * 0 exact style template; 1 warmer light and a three-quarter turn (a slight perspective shear);
 * 2 alternate outfit colour (the lower third of the subject re-tinted); 3 tighter crop with a
 * neutral grade.
 */
import sharp from 'sharp';
import type { HeadshotStyle, VariantSlot } from '../../api/index.js';
import { removeBackground, type Cutout } from './background.js';

export const HEADSHOT_SIZE = 512;

interface StyleLook {
  /** Backdrop gradient top and bottom. */
  backdrop: [string, string];
  /** Outfit tint for the lower third; slot 2 uses `altOutfit`. */
  outfit: string;
  altOutfit: string;
  saturation: number;
  brightness: number;
}

const LOOKS: Record<HeadshotStyle, StyleLook> = {
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

export interface HeadshotImage {
  png: Uint8Array;
  width: number;
  height: number;
}

/** Cuts the subject out once per batch; every slot starts from it. */
export function prepareSelfie(image: Uint8Array): Promise<Cutout> {
  return removeBackground(image);
}

export async function renderHeadshot(cut: Cutout, style: HeadshotStyle, slot: VariantSlot): Promise<HeadshotImage> {
  const look = LOOKS[style];
  const size = HEADSHOT_SIZE;
  const subjectBox = cut.box ?? { left: 0, top: 0, width: cut.width, height: cut.height };
  // Head and shoulders: frame the subject's box with some headroom; slot 3 crops tighter.
  const margin = slot === 3 ? 0.02 : 0.12;
  const side = Math.round(Math.max(subjectBox.width, subjectBox.height) * (1 + margin * 2) * (slot === 3 ? 0.8 : 1));
  const cx = subjectBox.left + subjectBox.width / 2;
  const top = Math.round(subjectBox.top - side * margin);
  const left = Math.round(cx - side / 2);
  // sharp runs extract before extend within one pipeline, so the padding is materialised first.
  const padded = await sharp(cut.rgba, { raw: { width: cut.width, height: cut.height, channels: 4 } })
    .extend({ top: side, bottom: side, left: side, right: side, background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .raw()
    .toBuffer();
  let person = sharp(padded, { raw: { width: cut.width + 2 * side, height: cut.height + 2 * side, channels: 4 } })
    .extract({ left: left + side, top: Math.max(0, top) + side, width: side, height: side })
    .resize(size, size);
  const raw = await person.raw().toBuffer();
  // Outfit: tint the subject's lower third (slot 2 in the alternate colour).
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
  person = sharp(raw, { raw: { width: size, height: size, channels: 4 } });
  if (slot === 1) {
    // A three-quarter turn: compress one side slightly, then warm the light.
    const turned = await person
      .affine(
        [
          [0.92, 0.06],
          [0, 1],
        ],
        { background: { r: 0, g: 0, b: 0, alpha: 0 } },
      )
      .raw()
      .toBuffer({ resolveWithObject: true });
    const resized = await sharp(turned.data, {
      raw: { width: turned.info.width, height: turned.info.height, channels: 4 },
    })
      .resize(size, size, { fit: 'fill' })
      .raw()
      .toBuffer();
    person = sharp(resized, { raw: { width: size, height: size, channels: 4 } });
    person = person.modulate({ brightness: look.brightness * 1.03, saturation: look.saturation * 1.1 }).recomb([
      [1.1, 0.02, 0],
      [0, 1.0, 0],
      [0, 0, 0.85],
    ]);
  } else if (slot === 3) {
    person = person.modulate({ brightness: 1, saturation: look.saturation * 0.85 });
  } else {
    person = person.modulate({ brightness: look.brightness, saturation: look.saturation });
  }
  const personPng = await person.png().toBuffer();
  const [top1, bottom1] = look.backdrop;
  const backdrop = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}"><defs><radialGradient id="g" cx="50%" cy="35%" r="75%"><stop offset="0" stop-color="${top1}"/><stop offset="1" stop-color="${bottom1}"/></radialGradient></defs><rect width="100%" height="100%" fill="url(#g)"/></svg>`,
  );
  const png = await sharp(backdrop)
    .composite([{ input: personPng }])
    .png({ compressionLevel: 6 })
    .toBuffer();
  return { png: new Uint8Array(png), width: size, height: size };
}

function hex(color: string): [number, number, number] {
  const n = parseInt(color.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}
