/**
 * The re-encode of a video by its plan: decoded frames scaled by a VideoEncoder, with back-pressure
 * from the encoder and the disk so only a few frames are alive at a time.
 */
import {
  EncodedPacket,
  EncodedPacketSink,
  EncodedVideoPacketSource,
  type InputVideoTrack,
  type Output,
} from 'mediabunny';
import { fitBitrate, type FitPlan } from './fit-video.js';

/** How many packets may wait for the decoder, and frames be in the encoder (each decoded 4K frame is 12 MB). */
const DECODE_AHEAD = 1;
const ENCODE_AHEAD = 2;
/** How many encoded packets may wait for the muxer (and the disk) before reading pauses. */
const MUX_AHEAD = 16;
/** Seconds between key frames in a re-encoded video. */
const KEY_FRAME_SECONDS = 2;

/** The H.264 codec strings tried, best first (High, Main, Constrained Baseline), at a level for the frame rate. */
function avcCodecs(width: number, height: number, frameRate: number): string[] {
  const macroblocksPerSecond = Math.ceil(width / 16) * Math.ceil(height / 16) * frameRate;
  const level = macroblocksPerSecond <= 245_760 ? '28' : macroblocksPerSecond <= 522_240 ? '2a' : '34';
  return ['6400', '4d00', '42e0'].map((profile) => `avc1.${profile}${level}`);
}

const dequeued = (coder: VideoDecoder | VideoEncoder) =>
  new Promise<void>((resolve) => coder.addEventListener('dequeue', () => resolve(), { once: true }));

/**
 * Re-encodes `track` by `plan` into `output` (not yet started): each decoded frame goes straight to
 * a VideoEncoder configured at the plan's frame size, which scales it (WebCodecs requires an
 * encoder to scale a frame of another size, here in the decoder's own YUV, with no RGBA copy on a
 * canvas), then is closed. Decoding waits while frames wait for the encoder, and reading waits
 * while packets wait for the disk, so a few 4K frames are alive at a time whatever the length.
 * Rotation metadata stays metadata: the frames are encoded as stored and the output track carries
 * the same rotation, so a portrait video stays portrait and turning 4K frames costs nothing.
 */
export async function reencode(
  track: InputVideoTrack,
  plan: FitPlan,
  output: Output,
  o: { signal?: AbortSignal; onFraction: (fraction: number) => void },
): Promise<void> {
  const { start, end } = plan.trim;
  const rotation = await track.getRotation();
  const turned = rotation % 180 !== 0;
  // The encoder sees frames as stored: a turned video's target is turned back.
  const width = turned ? plan.target.height : plan.target.width;
  const height = turned ? plan.target.width : plan.target.height;
  const frameRate = Math.min(240, Math.max(1, plan.frameRate));
  const bitrate = fitBitrate(end - start);
  let config: VideoEncoderConfig | undefined;
  for (const codec of avcCodecs(width, height, frameRate)) {
    const candidate: VideoEncoderConfig = {
      codec,
      width,
      height,
      bitrate,
      framerate: frameRate,
      avc: { format: 'avc' },
    };
    if ((await VideoEncoder.isConfigSupported(candidate).catch(() => undefined))?.supported) {
      config = candidate;
      break;
    }
  }
  if (!config) throw new Error('This browser cannot encode H.264 at this size.');
  const decoderConfig = await track.getDecoderConfig();
  if (!decoderConfig) throw new Error('This browser cannot decode this video.');
  // Frames come out as stored (the rotation goes on the output track instead).
  const {
    rotation: _r,
    flip: _f,
    ...storedConfig
  } = decoderConfig as VideoDecoderConfig & {
    rotation?: number;
    flip?: boolean;
  };

  const source = new EncodedVideoPacketSource('avc');
  output.addVideoTrack(source, { rotation, frameRate });
  await output.start();

  let failure: unknown;
  let failed: () => void = () => undefined;
  const failedOnce = new Promise<void>((resolve) => (failed = resolve));
  const fail = (err: unknown) => {
    failure ??= err;
    failed();
  };
  // Frames given to the encoder and not yet out of it (each holds its 4K frame until then).
  let inEncoder = 0;
  let encodeAhead = ENCODE_AHEAD;
  let encodedOne: () => void = () => undefined;
  const encoded = () => new Promise<void>((resolve) => (encodedOne = resolve));
  let muxing: Promise<void> = Promise.resolve();
  let muxPending = 0;
  const encoder = new VideoEncoder({
    output: (chunk, meta) => {
      const packet = EncodedPacket.fromEncodedChunk(chunk);
      const shifted = packet.clone({ timestamp: Math.max(0, packet.timestamp - start) });
      muxPending++;
      inEncoder--;
      encodedOne();
      muxing = muxing
        .then(() => source.add(shifted, meta))
        .then(() => {
          muxPending--;
          o.onFraction(Math.min(1, (shifted.timestamp + shifted.duration) / Math.max(0.001, end - start)));
        })
        .catch(fail);
    },
    error: fail,
  });
  encoder.configure(config);
  let lastKey = -1;
  const decoder = new VideoDecoder({
    output: (frame) => {
      try {
        const t = frame.timestamp / 1e6;
        // A frame with no duration still counts as shown at its time.
        const until = t + Math.max(1e-6, (frame.duration ?? 0) / 1e6);
        if (until <= start || t >= end || failure !== undefined) return;
        const interval = Math.floor(Math.max(0, t - start) / KEY_FRAME_SECONDS);
        encoder.encode(frame, { keyFrame: interval !== lastKey });
        inEncoder++;
        lastKey = interval;
      } catch (err) {
        fail(err);
      } finally {
        frame.close();
      }
    },
    error: fail,
  });
  // A decoder asked for low latency gives each frame out as soon as it can instead of holding a
  // frame per decoding thread (Chromium's software decoder: slice threads, not frame threads),
  // which keeps fewer 4K frames alive (measured: about 40 MB less at the peak, a little slower).
  decoder.configure({ ...storedConfig, optimizeForLatency: true });
  const stop = () => fail(o.signal?.reason ?? new DOMException('Cancelled', 'AbortError'));
  o.signal?.addEventListener('abort', stop, { once: true });
  try {
    const sink = new EncodedPacketSink(track);
    const first = (await sink.getKeyPacket(start, { verifyKeyPackets: true })) ?? (await sink.getFirstKeyPacket());
    if (first)
      for await (const packet of sink.packets(first, undefined, { verifyKeyPackets: true })) {
        // A key frame a second past the end: every frame shown before the end has been decoded.
        if (packet.type === 'key' && packet.timestamp >= end + 1) break;
        while (failure === undefined && (decoder.decodeQueueSize >= DECODE_AHEAD || inEncoder >= encodeAhead)) {
          const waited = await Promise.race([
            dequeued(decoder),
            encoded(),
            failedOnce,
            new Promise<'idle'>((resolve) => setTimeout(resolve, 500, 'idle')),
          ]);
          // An encoder that took every frame and gives nothing back holds frames by design (a
          // look-ahead, B-frames): it is given one more at a time until it answers.
          if (waited === 'idle' && inEncoder >= encodeAhead && encoder.encodeQueueSize === 0)
            encodeAhead = Math.min(32, encodeAhead + 1);
        }
        if (muxPending > MUX_AHEAD) await Promise.race([muxing, failedOnce]);
        if (failure !== undefined) break;
        decoder.decode(packet.toEncodedVideoChunk());
      }
    if (failure === undefined) await Promise.race([decoder.flush().catch(fail), failedOnce]);
    if (failure === undefined) await Promise.race([encoder.flush().catch(fail), failedOnce]);
    if (failure === undefined) await Promise.race([muxing, failedOnce]);
    if (failure !== undefined) throw failure;
    source.close();
    await output.finalize();
  } catch (err) {
    await output.cancel().catch(() => undefined);
    throw err;
  } finally {
    o.signal?.removeEventListener('abort', stop);
    if (decoder.state !== 'closed') decoder.close();
    if (encoder.state !== 'closed') encoder.close();
  }
}
