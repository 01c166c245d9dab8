/**
 * The browser's video artifacts, through mediabunny over WebCodecs: the video-to-3D
 * scene from frames the browser decodes, and the 3D job's turntable MP4 encoded by the browser.
 * The splats and the rasterizer are the platform-free modules Node uses too
 * (../artifacts/scene-splats.ts, ../artifacts/raster.ts), so both platforms make the same scenes.
 *
 * WebCodecs exists in windows and dedicated workers, not in a Service Worker: there the scene's
 * colours come from the video's digest (`source: 'digest'`, as in Node without ffmpeg) and the
 * turntable cannot be encoded (encodeTurntable throws).
 */
import {
  ALL_FORMATS,
  BlobSource,
  BufferSource,
  BufferTarget,
  getFirstEncodableVideoCodec,
  Input,
  Mp4OutputFormat,
  Output,
  QUALITY_HIGH,
  VideoSample,
  VideoSampleSink,
  VideoSampleSource,
  type Source,
  type VideoCodec,
} from 'mediabunny';
import { renderFrame, turntableAngle, turntableSettings } from '../artifacts/raster.js';
import { fillFrames, sceneFromPixels, sceneGrid, type SceneGrid } from '../artifacts/scene-splats.js';
import type { ReliefFace, SceneArtifact, SceneInput, SceneOptions, TurntableOptions, Upload } from '../platform.js';
import { BlobUpload } from './upload.js';

/**
 * The turntable's codecs, best first: H.264 as Node's ffmpeg writes it, then the others a browser
 * may encode and MP4 can carry.
 */
export const TURNTABLE_CODECS: readonly VideoCodec[] = ['avc', 'vp9', 'av1'];

/** A mediabunny `Source` over a video: its bytes, or a spooled upload's Blob (read in slices, never whole). */
export async function videoSource(video: Uint8Array | Upload): Promise<Source> {
  if (video instanceof Uint8Array) return new BufferSource(video);
  if (video instanceof BlobUpload) return new BlobSource(video.blob);
  return new BufferSource(await video.bytes());
}

/**
 * The video-to-3D artifact: `frames` frames sampled evenly over the video, scaled to the walls'
 * `cols` x `rows`, as wall panels. Where the browser cannot decode the video (its codec, a damaged
 * stream, no WebCodecs here) the colours come from the digest and `source` says `digest`.
 */
export async function buildScene(input: SceneInput, options: SceneOptions = {}): Promise<SceneArtifact> {
  const grid = sceneGrid(input, options);
  let pixels: Uint8Array | undefined;
  try {
    pixels = await decodeFrames(input, grid);
  } catch {
    pixels = undefined;
  }
  return sceneFromPixels(grid, input.sha256, pixels);
}

/** The frames' RGB pixels in `fillFrames`' layout; throws when none could be decoded. */
async function decodeFrames(input: SceneInput, grid: SceneGrid): Promise<Uint8Array> {
  const { frames, cols, rows } = grid;
  const video = new Input({ source: await videoSource(input.video), formats: ALL_FORMATS });
  try {
    const track = await video.getPrimaryVideoTrack();
    if (!track || !(await track.canDecode())) throw new Error('the browser cannot decode this video');
    // The same instants as Node's `fps=frames/duration` filter: the start, then every duration/frames.
    const start = await track.getFirstTimestamp();
    const step = Math.max(input.durationSeconds, 0.1) / frames;
    const times = Array.from({ length: frames }, (_, f) => start + f * step);
    const canvas = new OffscreenCanvas(cols, rows);
    const ctx = canvas.getContext('2d', { willReadFrequently: true });
    if (!ctx) throw new Error('no 2D canvas');
    const frameBytes = cols * rows * 3;
    const raw = new Uint8Array(frames * frameBytes);
    let decoded = 0;
    for await (const sample of new VideoSampleSink(track).samplesAtTimestamps(times)) {
      // A time before the first frame has no sample: it is left out, and fillFrames repeats the others.
      if (!sample) continue;
      try {
        ctx.clearRect(0, 0, cols, rows);
        sample.draw(ctx, 0, 0, cols, rows);
      } finally {
        sample.close();
      }
      const rgba = ctx.getImageData(0, 0, cols, rows).data;
      const out = raw.subarray(decoded * frameBytes, (decoded + 1) * frameBytes);
      for (let p = 0, o = 0; o < frameBytes; p += 4, o += 3) {
        out[o] = rgba[p]!;
        out[o + 1] = rgba[p + 1]!;
        out[o + 2] = rgba[p + 2]!;
      }
      decoded++;
    }
    return fillFrames(raw.subarray(0, decoded * frameBytes), grid);
  } finally {
    video.dispose();
  }
}

/**
 * The turntable MP4 of a relief: the shared rasterizer's frames, encoded by the browser with the
 * first of `TURNTABLE_CODECS` it can encode at this size (H.264 in Chrome and Chromium), the index
 * up front like ffmpeg's `+faststart`.
 */
export async function encodeTurntable(
  faces: readonly ReliefFace[],
  options: TurntableOptions = {},
): Promise<Uint8Array> {
  const { size, frames, fps } = turntableSettings(options);
  const codec = await getFirstEncodableVideoCodec([...TURNTABLE_CODECS], {
    width: size,
    height: size,
    quality: QUALITY_HIGH,
  });
  if (!codec)
    throw new Error(
      `This browser cannot encode H.264, VP9 or AV1 video${typeof VideoEncoder === 'undefined' ? ' here (no WebCodecs in this context, such as a Service Worker)' : ''}, so the turntable MP4 cannot be made.`,
    );
  const target = new BufferTarget();
  const output = new Output({ format: new Mp4OutputFormat({ fastStart: 'in-memory' }), target });
  const source = new VideoSampleSource({ codec, quality: QUALITY_HIGH });
  output.addVideoTrack(source, { frameRate: fps });
  await output.start();
  try {
    for (let f = 0; f < frames; f++) {
      // A fresh buffer a frame: without VideoFrame a sample keeps a reference to its pixels.
      const rgbx = new Uint8Array(size * size * 4);
      const rgb = renderFrame(faces, turntableAngle(f, frames), size);
      for (let p = 0, o = 0; p < rgb.length; p += 3, o += 4) {
        rgbx[o] = rgb[p]!;
        rgbx[o + 1] = rgb[p + 1]!;
        rgbx[o + 2] = rgb[p + 2]!;
        rgbx[o + 3] = 255;
      }
      const sample = new VideoSample(rgbx, {
        format: 'RGBX',
        codedWidth: size,
        codedHeight: size,
        timestamp: f / fps,
        duration: 1 / fps,
      });
      try {
        await source.add(sample);
      } finally {
        sample.close();
      }
    }
    await output.finalize();
  } catch (err) {
    await output.cancel();
    throw err;
  }
  return new Uint8Array(target.buffer!);
}
