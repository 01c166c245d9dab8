/**
 * Makes the viewer stories' model and scene with this repository's own sandbox artifact makers
 * (the same code that answers a 3D job and a video job), so they ship with the project under its
 * licence and need nothing from outside the repository:
 *   node --import tsx stories/assets/make.ts
 * - model.glb: the sandbox's text-mode model (its reference picture for the prompt below, as a relief).
 * - scene.zip: the sandbox's video-to-3D scene of demo/media/walkthrough.mp4, as a video job
 *   hands it over (a zip holding one standard 3DGS PLY).
 * The same inputs give the same bytes.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderReference } from '../../src/sandbox/artifacts/reference.js';
import { buildRelief } from '../../src/sandbox/artifacts/relief.js';
import { buildScene } from '../../src/sandbox/artifacts/scene.js';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const PROMPT = 'a blue ceramic teapot with a curved spout';
const SEED = 7;

const reference = await renderReference(PROMPT, SEED, 1024);
const { glb } = await buildRelief([reference], { textureSize: 512, seed: SEED, cutout: false });
writeFileSync(here('model.glb'), glb);

const video = new Uint8Array(readFileSync(here('../../demo/media/walkthrough.mp4')));
const sha256 = new Uint8Array(createHash('sha256').update(video).digest());
const scene = await buildScene({ video, durationSeconds: 4, width: 480, height: 270, sha256 });
writeFileSync(here('scene.zip'), scene.zip);
console.log(
  `model.glb ${glb.length} bytes; scene.zip ${scene.zip.length} bytes, ${scene.splats} splats from ${scene.source}`,
);
