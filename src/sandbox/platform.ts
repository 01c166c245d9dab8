/**
 * What differs between the sandbox in Node and the sandbox in a browser: where uploads
 * are spooled, how image URLs are fetched, and the artifact makers (pixels, video frames, MP4,
 * GLB). Everything else (the contract, accounts and ledger, jobs and clock, idempotency, rate
 * limits, faults, input checks, multipart) is the platform-free core, which imports only this
 * file's types. Node's implementation is ./node-platform.ts (sharp, ffmpeg, temp files); the
 * browser's is ./browser/platform.ts (createImageBitmap, OffscreenCanvas, WebCodecs, Blobs).
 */
import type { HeadshotStyle, ImageToolFormat, ImageToolSize, ModelStats, VariantSlot } from '../api/index.js';

/** A multipart file part, stored outside the request's memory while it arrives. */
export interface Upload {
  readonly name: string;
  readonly type: string;
  readonly size: number;
  readonly sha256: Uint8Array;
  /** The first bytes (format sniffing). */
  readonly head: Uint8Array;
  /** Set by whoever keeps the file past the request (a job); otherwise it is disposed when the request ends. */
  kept: boolean;
  /** The whole file in memory (images; a video is read through `SandboxPlatform.videoSource`). */
  bytes(): Promise<Uint8Array>;
  /** Deletes the stored bytes (idempotent). */
  dispose(): Promise<void>;
}

/** Receives one file part as it arrives. */
export interface UploadWriter {
  write(chunk: Uint8Array): Promise<void>;
  finish(meta: { name: string; type: string; size: number; sha256: Uint8Array; head: Uint8Array }): Promise<Upload>;
  /** Drops what was written (a rejected request). Never throws. */
  abort(): Promise<void>;
}

/** An incremental SHA-256. */
export interface Hasher {
  update(bytes: Uint8Array): Hasher;
  digest(): Uint8Array;
}

export interface RemoteImageOptions {
  /** How long to wait for an image URL, redirects included. */
  timeoutMs: number;
  /** A fetch to use instead of the platform's own client (then only the URL's text is checked). */
  fetch?: typeof fetch;
  allowLoopback?: boolean;
  maxRedirects?: number;
  maxBytes: number;
}

/** An image with its subject cut out. */
export interface Cutout {
  /** RGBA pixels of the full-size image with the subject's alpha. */
  rgba: Uint8Array;
  width: number;
  height: number;
  /** Bounding box of the subject (alpha >= 128), full-size pixels; undefined when nothing was found. */
  box: { left: number; top: number; width: number; height: number } | undefined;
}

export interface HeadshotImage {
  png: Uint8Array;
  width: number;
  height: number;
}

export interface ImageToolOptions {
  size: ImageToolSize;
  format: ImageToolFormat;
  /** `#rrggbb`, already validated. */
  bgColor: string | undefined;
  crop: boolean;
}

export interface ImageToolOutput {
  bytes: Uint8Array;
  width: number;
  height: number;
  contentType: 'image/png' | 'image/jpeg';
}

/** The image has no subject to cut out (the image tool answers 422). */
export class NoSubjectError extends Error {}

export interface ReliefFace {
  /** Vertex positions (x, y, z) and texture coordinates, GRID x GRID. */
  positions: Float32Array;
  uvs: Float32Array;
  indices: Uint32Array;
  /** RGBA texture pixels for software rendering (turntable). */
  texture: { data: Uint8Array; width: number; height: number };
}

export interface Relief {
  glb: Uint8Array;
  faces: ReliefFace[];
}

export interface ReliefOptions {
  textureSize: number;
  seed: number;
  /** Photos already cut out (PNG with alpha): transparent pixels get no height and are masked. */
  cutout: boolean;
}

export interface TurntableOptions {
  size?: number;
  frames?: number;
  fps?: number;
}

export interface SceneOptions {
  /** Frames taken from the video (wall panels). Default 6. */
  frames?: number;
  /** Splats per panel row; columns follow the aspect ratio. Default 40. */
  columns?: number;
}

export interface SceneInput {
  /** The video, in memory or (a spooled upload) stored by the platform. */
  video: Uint8Array | Upload;
  durationSeconds: number;
  width: number;
  height: number;
  sha256: Uint8Array;
}

export interface SceneArtifact {
  ply: Uint8Array;
  zip: Uint8Array;
  splats: number;
  /** Where the colours came from: the video's frames, or its digest where frames could not be decoded. */
  source: 'frames' | 'digest';
}

/** One platform's implementation of everything the core cannot do in plain ECMAScript. */
export interface SandboxPlatform {
  /** `node` or `browser`; shown in the control plane's status. */
  readonly name: string;
  sha256(): Hasher;
  /** Where multipart file parts go while they arrive. */
  spool(): Promise<UploadWriter>;
  /** Removes spooled files left by a process that died (Node's temp folders); may do nothing. */
  sweep(): Promise<void>;
  /** Fetches an http(s) image URL with the platform's protections (public hosts, time and size caps). */
  fetchImage(url: string, field: string, options: RemoteImageOptions): Promise<Uint8Array>;
  /** A mediabunny `Source` over a video (in memory or spooled). */
  videoSource(video: Uint8Array | Upload): Promise<unknown>;

  /** The size of an image that decodes completely; throws when it does not. */
  decodeSize(bytes: Uint8Array): Promise<{ width: number; height: number }>;
  removeBackground(image: Uint8Array): Promise<Cutout>;
  /** PNG of RGBA pixels. */
  encodePng(rgba: Uint8Array, width: number, height: number): Promise<Uint8Array>;
  renderHeadshot(cut: Cutout, style: HeadshotStyle, slot: VariantSlot): Promise<HeadshotImage>;
  /** Background removal with the image tool's output options; throws `NoSubjectError`. */
  runImageTool(image: Uint8Array, options: ImageToolOptions): Promise<ImageToolOutput>;
  /** The prompt's reference picture (3D generation from text), a PNG. */
  renderReference(prompt: string, seed: number, size: number): Promise<Uint8Array>;
  buildRelief(images: Uint8Array[], options: ReliefOptions): Promise<Relief>;
  encodeTurntable(faces: readonly ReliefFace[], options?: TurntableOptions): Promise<Uint8Array>;
  buildScene(input: SceneInput, options?: SceneOptions): Promise<SceneArtifact>;
  glbStats(glb: Uint8Array): Promise<ModelStats>;
}
