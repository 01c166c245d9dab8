/**
 * The loaders: a GLTFLoader for each file, with only what the file needs: the Meshopt decoder for
 * EXT_meshopt_compression, Draco and KTX2 loaders for their extensions (from paths the page
 * configures, never a CDN), each imported on first use. Their workers end with the parse.
 * Imported only by glb-renderer.ts (it imports three).
 */
import type { WebGLRenderer } from 'three';
import { GLTFLoader, type GLTF } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { ViewerError } from '../shared/viewer-error.js';
import { reasonOf, viewerMessages } from '../shared/viewer-messages.js';
import { splitGlb } from './glb-stats.js';

export interface GlbLoaderOptions {
  /** Folder of the Draco decoder files (draco_wasm_wrapper.js, draco_decoder.wasm); unset: three's own, beside the bundle. */
  dracoPath?: string;
  /** Folder of the Basis transcoder (basis_transcoder.js/.wasm); unset: three's own, beside the bundle. */
  ktx2Path?: string;
}

/** Parses a GLB (or .gltf text) file; `renderer` tells the KTX2 loader which texture formats the GPU takes. */
export async function parseGlb(
  bytes: Uint8Array,
  renderer: WebGLRenderer,
  options: GlbLoaderOptions = {},
): Promise<GLTF> {
  const { json } = splitGlb(bytes);
  const used = new Set(json.extensionsUsed ?? []);
  const loader = new GLTFLoader();
  if (used.has('EXT_meshopt_compression')) {
    const { MeshoptDecoder } = await import('three/examples/jsm/libs/meshopt_decoder.module.js');
    loader.setMeshoptDecoder(MeshoptDecoder);
  }
  // Draco and KTX2: three's own decoders, which the site's bundler copies beside its chunks
  // (new URL(…, import.meta.url) in three's loaders) and the browser fetches only here, when a
  // file uses the extension; draco-path / ktx2-path point at another folder.
  const workers: { dispose(): unknown }[] = [];
  if (used.has('KHR_draco_mesh_compression')) {
    const { DRACOLoader } = await import('three/examples/jsm/loaders/DRACOLoader.js');
    const draco = new DRACOLoader();
    if (options.dracoPath) draco.setDecoderPath(options.dracoPath);
    loader.setDRACOLoader(draco);
    workers.push(draco);
  }
  if (used.has('KHR_texture_basisu')) {
    const { KTX2Loader } = await import('three/examples/jsm/loaders/KTX2Loader.js');
    const ktx2 = new KTX2Loader().detectSupport(renderer);
    if (options.ktx2Path) ktx2.setTranscoderPath(options.ktx2Path);
    loader.setKTX2Loader(ktx2);
    workers.push(ktx2);
  }
  try {
    const buffer =
      bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
        ? (bytes.buffer as ArrayBuffer)
        : bytes.slice().buffer;
    return await loader.parseAsync(buffer, '');
  } catch (err) {
    const message = reasonOf(err);
    // A decoder that could not be fetched or started is not a broken file.
    if (workers.length && /decoder|transcoder|fetch|wasm|worker/i.test(message))
      throw new ViewerError('unsupported_format', viewerMessages.decoderMissing(message));
    throw new ViewerError('corrupt_file', viewerMessages.modelUnreadable(message));
  } finally {
    // The decoders' workers end with the parse (each file starts its own).
    for (const w of workers) w.dispose();
  }
}
