/**
 * The browser sandbox's video artifacts (src/sandbox/browser/video.ts) in real Chromium: the
 * video-to-3D scene from frames WebCodecs decodes, its honest digest fallback, and the 3D job's
 * turntable MP4 encoded by the browser, read back with mediabunny and played in a <video>.
 */
import { expect } from '@open-wc/testing';
import { unzipSync } from 'fflate';
import {
  ALL_FORMATS,
  BufferSource,
  BufferTarget,
  CanvasSink,
  CanvasSource,
  EncodedPacket,
  EncodedPacketSink,
  EncodedVideoPacketSource,
  getFirstEncodableVideoCodec,
  Input,
  Mp4OutputFormat,
  Output,
  VideoSampleSink,
  canEncodeVideo,
} from 'mediabunny';
import { buildScene, encodeTurntable, videoSource } from '../../src/sandbox/browser/video.js';
import { BlobUpload } from '../../src/sandbox/browser/upload.js';
import { renderFrame } from '../../src/sandbox/artifacts/raster.js';
import { sceneFromPixels, sceneGrid } from '../../src/sandbox/artifacts/scene-splats.js';
import { SH_C0 } from '../../src/sandbox/artifacts/ply.js';
import type { ReliefFace, SceneInput } from '../../src/sandbox/platform.js';

async function sha256(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
}

/** An H.264 test pattern made by ffmpeg on the test server (test/fixtures/media.ts). */
async function fixtureMp4(seconds: number, width: number, height: number, fps: number): Promise<Uint8Array> {
  const r = await fetch(`/__fixtures/video?seconds=${seconds}&width=${width}&height=${height}&fps=${fps}`);
  expect(r.ok, 'the fixture video').to.equal(true);
  return new Uint8Array(await r.arrayBuffer());
}

/** The upload the browser sandbox's spool would hand the job: the video in a Blob. */
async function blobUpload(bytes: Uint8Array): Promise<BlobUpload> {
  const blob = new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'video/mp4' });
  return new BlobUpload(blob, 'walk.mp4', 'video/mp4', bytes.byteLength, await sha256(bytes), bytes.subarray(0, 64));
}

async function sceneInput(bytes: Uint8Array, asUpload = true): Promise<SceneInput> {
  const input = new Input({ source: new BufferSource(bytes), formats: ALL_FORMATS });
  try {
    const track = await input.getPrimaryVideoTrack();
    return {
      video: asUpload ? await blobUpload(bytes) : bytes,
      durationSeconds: await input.computeDuration(),
      width: track!.displayWidth,
      height: track!.displayHeight,
      sha256: await sha256(bytes),
    };
  } finally {
    input.dispose();
  }
}

/** A clip the browser encodes itself: `seconds` of each colour in turn, 64x48 at 10 fps. */
async function colourClip(colours: string[], seconds: number): Promise<Uint8Array> {
  const codec = await getFirstEncodableVideoCodec(['avc', 'vp9', 'av1'], { width: 64, height: 48 });
  expect(codec, 'a codec this browser encodes').to.not.equal(null);
  const canvas = new OffscreenCanvas(64, 48);
  const ctx = canvas.getContext('2d')!;
  const target = new BufferTarget();
  const output = new Output({ format: new Mp4OutputFormat({ fastStart: 'in-memory' }), target });
  const source = new CanvasSource(canvas, { codec: codec!, bitrate: 500_000 });
  output.addVideoTrack(source, { frameRate: 10 });
  await output.start();
  let f = 0;
  for (const colour of colours) {
    for (let i = 0; i < seconds * 10; i++, f++) {
      ctx.fillStyle = colour;
      ctx.fillRect(0, 0, 64, 48);
      await source.add(f / 10, 1 / 10);
    }
  }
  await output.finalize();
  return new Uint8Array(target.buffer!);
}

/** An MP4 whose video is HEVC (garbage packets, a plausible sample entry): Chromium on Linux has no HEVC decoder. */
async function hevcClip(): Promise<Uint8Array> {
  const target = new BufferTarget();
  const output = new Output({ format: new Mp4OutputFormat({ fastStart: 'in-memory' }), target });
  const source = new EncodedVideoPacketSource('hevc');
  output.addVideoTrack(source, { frameRate: 10 });
  await output.start();
  const description = new Uint8Array(23);
  description[0] = 1; // configurationVersion
  description[1] = 1; // general_profile_space/tier/profile_idc (Main)
  description[12] = 93; // general_level_idc
  description[21] = 0x0f; // lengthSizeMinusOne = 3
  for (let f = 0; f < 20; f++) {
    const data = new Uint8Array(200).map((_, i) => (i * 31 + f) & 0xff);
    await source.add(
      new EncodedPacket(data, f === 0 ? 'key' : 'delta', f / 10, 1 / 10),
      f === 0
        ? { decoderConfig: { codec: 'hev1.1.6.L93.B0', codedWidth: 64, codedHeight: 48, description } }
        : undefined,
    );
  }
  await output.finalize();
  return new Uint8Array(target.buffer!);
}

interface Ply {
  count: number;
  /** Linear RGB 0..1 of splat `i`, from its degree-0 harmonics. */
  colour(i: number): [number, number, number];
}

function readPly(bytes: Uint8Array): Ply {
  const text = new TextDecoder('latin1').decode(bytes.subarray(0, 4096));
  const end = text.indexOf('end_header\n') + 'end_header\n'.length;
  const header = text.slice(0, end);
  expect(header.startsWith('ply\nformat binary_little_endian 1.0\n')).to.equal(true);
  const count = Number(/element vertex (\d+)/.exec(header)![1]);
  const props = [...header.matchAll(/property float (\w+)/g)].map((m) => m[1]!);
  const stride = props.length * 4;
  expect(bytes.byteLength, 'PLY size').to.equal(end + count * stride);
  const view = new DataView(bytes.buffer, bytes.byteOffset + end);
  const dc = ['f_dc_0', 'f_dc_1', 'f_dc_2'].map((p) => props.indexOf(p) * 4);
  return {
    count,
    colour: (i) => dc.map((o) => 0.5 + SH_C0 * view.getFloat32(i * stride + o, true)) as [number, number, number],
  };
}

/** The mean colour of wall panel `f` (splats are written panel by panel, row by row). */
function panelColour(ply: Ply, f: number, cols: number, rows: number): [number, number, number] {
  const sum = [0, 0, 0];
  const n = cols * rows;
  for (let i = f * n; i < (f + 1) * n; i++) {
    const c = ply.colour(i);
    for (let k = 0; k < 3; k++) sum[k]! += c[k]! / n;
  }
  return sum as [number, number, number];
}

/** A flat relief face: a square facing the camera at angle 0, textured left half red, right half blue. */
function testFace(): ReliefFace {
  const texture = { data: new Uint8Array(8 * 8 * 4), width: 8, height: 8 };
  for (let y = 0; y < 8; y++)
    for (let x = 0; x < 8; x++) texture.data.set(x < 4 ? [220, 30, 30, 255] : [30, 30, 220, 255], (y * 8 + x) * 4);
  return {
    positions: new Float32Array([-0.5, 0.5, 0.2, 0.5, 0.5, 0.2, -0.5, -0.5, 0.2, 0.5, -0.5, 0.2]),
    uvs: new Float32Array([0, 0, 1, 0, 0, 1, 1, 1]),
    indices: new Uint32Array([0, 2, 1, 1, 2, 3]),
    texture,
  };
}

/** The top-level MP4 boxes in order. */
function boxes(mp4: Uint8Array): string[] {
  const view = new DataView(mp4.buffer, mp4.byteOffset, mp4.byteLength);
  const out: string[] = [];
  for (let o = 0; o + 8 <= mp4.byteLength;) {
    const size = view.getUint32(o);
    out.push(new TextDecoder().decode(mp4.subarray(o + 4, o + 8)));
    if (size < 8) break;
    o += size;
  }
  return out;
}

describe('browser sandbox: video to 3D scene', () => {
  it('walls of a real H.264 MP4 (ffmpeg) are its frames, sampled evenly, as a PLY and a zip of it', async () => {
    const bytes = await fixtureMp4(2, 64, 64, 5);
    const input = await sceneInput(bytes);
    const scene = await buildScene(input);
    expect(scene.source).to.equal('frames');
    // Sandbox defaults: 6 panels of 40 x 40 (a square video), plus a floor of 40 * 8 splats.
    const grid = sceneGrid(input);
    expect(grid).to.deep.equal({ frames: 6, cols: 40, rows: 40 });
    expect(scene.splats).to.equal(6 * 40 * 40 + 40 * 8);
    const ply = readPly(scene.ply);
    expect(ply.count).to.equal(scene.splats);
    const zipped = unzipSync(scene.zip);
    expect(Object.keys(zipped)).to.deep.equal(['scene.ply']);
    expect(zipped['scene.ply']).to.deep.equal(scene.ply);

    // Each panel is the frame shown at its own instant (start + f * duration / 6, the instants of
    // Node's ffmpeg fps filter), scaled to 40 x 40: here taken one at a time by mediabunny's
    // CanvasSink (its own frame lookup and scaler), so small differences are allowed.
    const reader = new Input({ source: new BufferSource(bytes), formats: ALL_FORMATS });
    const sink = new CanvasSink((await reader.getPrimaryVideoTrack())!, { width: 40, height: 40, fit: 'fill' });
    const refs: Uint8ClampedArray[] = [];
    for (let f = 0; f < 6; f++) {
      const frame = (await sink.getCanvas((f * input.durationSeconds) / 6))!;
      refs.push((frame.canvas as HTMLCanvasElement).getContext('2d')!.getImageData(0, 0, 40, 40).data);
    }
    reader.dispose();
    const error = (f: number, ref: Uint8ClampedArray) => {
      let err = 0;
      for (let i = 0; i < 1600; i++) {
        const c = ply.colour(f * 1600 + i);
        for (let k = 0; k < 3; k++) err += Math.abs(c[k]! * 255 - ref[i * 4 + k]!) / (1600 * 3);
      }
      return Math.round(err * 10) / 10;
    };
    // Mean error per channel (0..255) of each panel against each frame: a panel is closest to its
    // own frame, and close; the test pattern's frames differ by far more (moving parts, a counter).
    for (let f = 0; f < 6; f++) {
      const errors = refs.map((ref) => error(f, ref));
      expect(errors.indexOf(Math.min(...errors)), `panel ${f} against the frames: ${errors}`).to.equal(f);
      expect(errors[f], `panel ${f} against the frames: ${errors}`).to.be.below(6);
    }
    const digest = readPly(sceneFromPixels(grid, input.sha256, undefined).ply);
    expect(panelColour(ply, 0, 40, 40)).to.not.deep.equal(panelColour(digest, 0, 40, 40));
  });

  it('a red-then-blue clip gives three red walls then three blue ones, and a floor of both', async () => {
    const bytes = await colourClip(['#e01010', '#1010e0'], 2);
    const input = await sceneInput(bytes, false);
    expect(input.durationSeconds).to.be.closeTo(4, 0.05);
    const scene = await buildScene(input, { frames: 6, columns: 16 });
    expect(scene.source).to.equal('frames');
    const rows = sceneGrid(input, { columns: 16 }).rows; // 16 * 48 / 64
    expect(rows).to.equal(12);
    expect(scene.splats).to.equal(6 * 16 * 12 + 16 * 8);
    const ply = readPly(scene.ply);
    const walls = [0, 1, 2, 3, 4, 5].map((f) => panelColour(ply, f, 16, rows));
    for (const [r, g, b] of walls.slice(0, 3))
      expect(r > 0.75 && g < 0.2 && b < 0.2, `red: ${[r, g, b]}`).to.equal(true);
    for (const [r, g, b] of walls.slice(3)) expect(b > 0.75 && g < 0.2 && r < 0.2, `blue: ${[r, g, b]}`).to.equal(true);
    // The floor is tinted by the walls' bottom rows: half red, half blue, purple-ish.
    const [r, g, b] = ply.colour(scene.splats - 1);
    expect(r > 0.3 && b > 0.3 && g < 0.15, `floor: ${[r, g, b]}`).to.equal(true);
  });

  it('a video the browser cannot decode (HEVC here) is made from its digest, as Node does without ffmpeg', async () => {
    const bytes = await hevcClip();
    const probe = new Input({ source: await videoSource(bytes), formats: ALL_FORMATS });
    const track = (await probe.getPrimaryVideoTrack())!;
    expect(await track.getCodec()).to.equal('hevc');
    expect(await track.canDecode(), 'Chromium on Linux decodes HEVC now: pick another codec').to.equal(false);
    probe.dispose();
    const input = await sceneInput(bytes);
    const scene = await buildScene(input);
    expect(scene.source).to.equal('digest');
    const expected = sceneFromPixels(sceneGrid(input), input.sha256, undefined);
    expect(scene.splats).to.equal(expected.splats);
    expect(scene.ply).to.deep.equal(expected.ply);
    expect(unzipSync(scene.zip)['scene.ply']).to.deep.equal(expected.ply);
  });

  it('bytes that are no video at all also fall back to the digest rather than failing', async () => {
    const bytes = new Uint8Array(4096).map((_, i) => (i * 7) & 0xff);
    const scene = await buildScene({
      video: bytes,
      durationSeconds: 3,
      width: 64,
      height: 64,
      sha256: await sha256(bytes),
    });
    expect(scene.source).to.equal('digest');
    expect(readPly(scene.ply).count).to.equal(scene.splats);
  });
});

describe('browser sandbox: turntable MP4', () => {
  it('is an MP4 with the requested frames, size and duration, index first, that a <video> plays', async () => {
    const faces = [testFace()];
    const mp4 = await encodeTurntable(faces, { size: 128, frames: 12, fps: 12 });
    // Index up front (like ffmpeg's +faststart), so a <video> starts before the whole file arrives.
    expect(boxes(mp4).slice(0, 3)).to.deep.equal(['ftyp', 'moov', 'mdat']);
    const input = new Input({ source: new BufferSource(mp4), formats: ALL_FORMATS });
    const track = (await input.getPrimaryVideoTrack())!;
    // H.264 like Node's ffmpeg wherever the browser has an H.264 encoder (Debian's Chromium does).
    const codec = await track.getCodec();
    console.log(`browser turntable codec: ${codec} (${await track.getCodecParameterString()})`);
    if (await canEncodeVideo('avc', { width: 128, height: 128 })) expect(codec).to.equal('avc');
    else expect(['vp9', 'av1']).to.include(codec);
    expect([track.displayWidth, track.displayHeight]).to.deep.equal([128, 128]);
    const packets: string[] = [];
    for await (const packet of new EncodedPacketSink(track).packets()) packets.push(packet.type);
    expect(packets).to.have.length(12);
    expect(packets[0]).to.equal('key');
    expect(await input.computeDuration()).to.be.closeTo(1, 0.01);
    // The first frame is the relief as the rasterizer draws it: red on the left, blue on the right.
    const sample = (await new VideoSampleSink(track).getSample(0))!;
    const canvas = new OffscreenCanvas(128, 128);
    const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
    sample.draw(ctx, 0, 0);
    sample.close();
    const rendered = renderFrame(faces, 0, 128);
    for (const [x, y] of [
      [40, 64],
      [88, 64],
      [10, 10],
    ] as const) {
      const got = ctx.getImageData(x, y, 1, 1).data;
      const want = rendered.subarray((y * 128 + x) * 3, (y * 128 + x) * 3 + 3);
      for (let k = 0; k < 3; k++) expect(Math.abs(got[k]! - want[k]!), `(${x},${y}) ${got} vs ${want}`).to.be.below(12);
    }
    input.dispose();

    const video = document.createElement('video');
    video.muted = true;
    video.src = URL.createObjectURL(new Blob([mp4 as Uint8Array<ArrayBuffer>], { type: 'video/mp4' }));
    await new Promise((resolve, reject) => {
      video.addEventListener('loadeddata', resolve, { once: true });
      video.addEventListener('error', () => reject(new Error(`video error ${video.error?.code}`)), { once: true });
    });
    expect([video.videoWidth, video.duration]).to.deep.equal([128, 1]);
    URL.revokeObjectURL(video.src);
  });
});

describe('browser sandbox: video artifact timings', () => {
  it('at the sandbox defaults (printed once)', async () => {
    const bytes = await fixtureMp4(10, 1280, 720, 30);
    const input = await sceneInput(bytes);
    let t = performance.now();
    const scene = await buildScene(input);
    const sceneMs = performance.now() - t;
    expect(scene.source).to.equal('frames');
    // A relief like the sandbox's 3D job: a 48 x 48 grid (two triangles a cell), 256 px texture.
    const grid = 48;
    const positions = new Float32Array(grid * grid * 3);
    const uvs = new Float32Array(grid * grid * 2);
    const indices: number[] = [];
    for (let y = 0; y < grid; y++)
      for (let x = 0; x < grid; x++) {
        const u = x / (grid - 1),
          v = y / (grid - 1);
        positions.set([u - 0.5, 0.5 - v, 0.1 * Math.sin(u * 6) * Math.cos(v * 6)], (y * grid + x) * 3);
        uvs.set([u, v], (y * grid + x) * 2);
        if (x < grid - 1 && y < grid - 1) {
          const i = y * grid + x;
          indices.push(i, i + grid, i + 1, i + 1, i + grid, i + grid + 1);
        }
      }
    const data = new Uint8Array(256 * 256 * 4).map((_, i) => (i % 4 === 3 ? 255 : (i * 13) & 0xff));
    const faces = [{ positions, uvs, indices: new Uint32Array(indices), texture: { data, width: 256, height: 256 } }];
    t = performance.now();
    const mp4 = await encodeTurntable(faces);
    const turntableMs = performance.now() - t;
    // The defaults: 256 px, 36 frames at 12 fps (3 s).
    const input2 = new Input({ source: new BufferSource(mp4), formats: ALL_FORMATS });
    const track = (await input2.getPrimaryVideoTrack())!;
    expect([track.displayWidth, track.displayHeight]).to.deep.equal([256, 256]);
    expect(await input2.computeDuration()).to.be.closeTo(3, 0.01);
    const codec = await track.getCodecParameterString();
    input2.dispose();
    console.log(
      `browser video artifacts: buildScene ${Math.round(sceneMs)} ms (10 s 1280x720 30 fps H.264, 6 frames x 40 columns, ${scene.splats} splats); ` +
        `encodeTurntable ${Math.round(turntableMs)} ms (256 px, 36 frames, 12 fps, ${codec}, ${mp4.byteLength} bytes)`,
    );
  });
});
