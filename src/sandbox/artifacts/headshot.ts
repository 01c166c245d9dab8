/**
 * Headshot variants made from the selfie with sharp. The looks, the framing and the slots'
 * variations are ./headshot-looks.ts, shared with the browser.
 */
import sharp from 'sharp';
import type { HeadshotStyle, VariantSlot } from '../../api/index.js';
import { removeBackground } from './background.js';
import type { Cutout, HeadshotImage } from '../platform.js';
import {
  BACKDROP_GRADIENT,
  HEADSHOT_SIZE,
  LOOKS,
  TURN,
  WARM,
  headshotFrame,
  slotGrade,
  tintOutfit,
} from './headshot-looks.js';

export { HEADSHOT_SIZE };
export type { HeadshotImage };

/** Cuts the subject out once per batch; every slot starts from it. */
export function prepareSelfie(image: Uint8Array): Promise<Cutout> {
  return removeBackground(image);
}

export async function renderHeadshot(cut: Cutout, style: HeadshotStyle, slot: VariantSlot): Promise<HeadshotImage> {
  const look = LOOKS[style];
  const size = HEADSHOT_SIZE;
  const { left, top, side } = headshotFrame(cut, slot);
  // sharp runs extract before extend within one pipeline, so the padding is materialised first.
  const padded = await sharp(cut.rgba, { raw: { width: cut.width, height: cut.height, channels: 4 } })
    .extend({ top: side, bottom: side, left: side, right: side, background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .raw()
    .toBuffer();
  let person = sharp(padded, { raw: { width: cut.width + 2 * side, height: cut.height + 2 * side, channels: 4 } })
    .extract({ left: left + side, top: top + side, width: side, height: side })
    .resize(size, size);
  const raw = await person.raw().toBuffer();
  tintOutfit(raw, size, look, slot);
  person = sharp(raw, { raw: { width: size, height: size, channels: 4 } });
  if (slot === 1) {
    // A three-quarter turn: compress one side slightly, then warm the light.
    const turned = await person
      .affine(
        [
          [TURN.a, TURN.c],
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
    person = person.modulate(slotGrade(look, slot)).recomb(WARM);
  } else {
    person = person.modulate(slotGrade(look, slot));
  }
  const personPng = await person.png().toBuffer();
  const [top1, bottom1] = look.backdrop;
  const backdrop = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}"><defs><radialGradient id="g" cx="${BACKDROP_GRADIENT.cx}%" cy="${BACKDROP_GRADIENT.cy}%" r="${BACKDROP_GRADIENT.r}%"><stop offset="0" stop-color="${top1}"/><stop offset="1" stop-color="${bottom1}"/></radialGradient></defs><rect width="100%" height="100%" fill="url(#g)"/></svg>`,
  );
  const png = await sharp(backdrop)
    .composite([{ input: personPng }])
    .png({ compressionLevel: 6 })
    .toBuffer();
  return { png: new Uint8Array(png), width: size, height: size };
}
