/**
 * GLB statistics in Node: the GLB is read with NodeIO; the counting rules are ./glb-count.ts,
 * shared with the browser.
 */
import { NodeIO } from '@gltf-transform/core';
import type { ModelStats } from '../../api/index.js';
import { countStats } from './glb-count.js';

export async function glbStats(glb: Uint8Array): Promise<ModelStats> {
  return countStats(await new NodeIO().readBinary(glb), glb.byteLength);
}
