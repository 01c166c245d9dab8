/**
 * Duration and frame size of an MP4/MOV from its `moov` box (shared/notes/FORMATS.md, ISO-BMFF),
 * read from a Blob by slices: only box headers and the moov box are read, wherever moov sits
 * (phones often write it last), so a 500 MB file costs a few kilobytes of reading. Works for any
 * codec, including HEVC files that the page's <video> element cannot decode.
 */

export interface VideoMetadata {
  durationSeconds: number;
  width: number;
  height: number;
}

/** Bigger moov boxes exist (hours of video) but not within our limits; refuse to read more. */
const MAX_MOOV_BYTES = 32 * 1024 * 1024;

interface Box {
  type: string;
  /** Offset of the payload (after the header) and its length. */
  start: number;
  size: number;
}

const typeAt = (v: DataView, o: number) =>
  String.fromCharCode(v.getUint8(o), v.getUint8(o + 1), v.getUint8(o + 2), v.getUint8(o + 3));

function u64(v: DataView, o: number): number {
  return v.getUint32(o) * 2 ** 32 + v.getUint32(o + 4);
}

/** The boxes in `view` from `start` to `end`. */
function* boxes(view: DataView, start: number, end: number): Generator<Box> {
  let o = start;
  while (o + 8 <= end) {
    let size = view.getUint32(o);
    const type = typeAt(view, o + 4);
    let header = 8;
    if (size === 1) {
      if (o + 16 > end) return;
      size = u64(view, o + 8);
      header = 16;
    } else if (size === 0) size = end - o;
    if (size < header || o + size > end) return;
    yield { type, start: o + header, size: size - header };
    o += size;
  }
}

const child = (view: DataView, parent: Box, type: string) => {
  for (const b of boxes(view, parent.start, parent.start + parent.size)) if (b.type === type) return b;
  return undefined;
};

/** Finds the top-level moov box by reading box headers only. */
async function findMoov(blob: Blob): Promise<DataView | undefined> {
  let o = 0;
  for (let guard = 0; guard < 10_000 && o + 8 <= blob.size; guard++) {
    const head = new DataView(await blob.slice(o, o + 16).arrayBuffer());
    let size = head.getUint32(0);
    const type = typeAt(head, 4);
    let header = 8;
    if (size === 1) {
      if (head.byteLength < 16) return undefined;
      size = u64(head, 8);
      header = 16;
    } else if (size === 0) size = blob.size - o;
    if (size < header) return undefined;
    if (type === 'moov') {
      if (size > MAX_MOOV_BYTES) return undefined;
      return new DataView(await blob.slice(o + header, o + size).arrayBuffer());
    }
    o += size;
  }
  return undefined;
}

/** Reads duration and frame size from the container, or undefined when the file does not say. */
export async function readMp4Metadata(blob: Blob): Promise<VideoMetadata | undefined> {
  const moov = await findMoov(blob);
  if (!moov) return undefined;
  const root: Box = { type: 'moov', start: 0, size: moov.byteLength };
  const mvhd = child(moov, root, 'mvhd');
  if (!mvhd || mvhd.size < 20) return undefined;
  const v1 = moov.getUint8(mvhd.start) === 1;
  const timescale = moov.getUint32(mvhd.start + (v1 ? 20 : 12));
  let duration = v1 ? u64(moov, mvhd.start + 24) : moov.getUint32(mvhd.start + 16);
  // Fragmented files may leave mvhd's duration empty and state it in mvex/mehd.
  if (duration === 0) {
    const mehd = child(moov, root, 'mvex') && child(moov, child(moov, root, 'mvex')!, 'mehd');
    if (mehd) duration = moov.getUint8(mehd.start) === 1 ? u64(moov, mehd.start + 4) : moov.getUint32(mehd.start + 4);
  }
  let width = 0;
  let height = 0;
  for (const trak of boxes(moov, 0, moov.byteLength)) {
    if (trak.type !== 'trak') continue;
    const mdia = child(moov, trak, 'mdia');
    const hdlr = mdia && child(moov, mdia, 'hdlr');
    if (!hdlr || typeAt(moov, hdlr.start + 8) !== 'vide') continue;
    const tkhd = child(moov, trak, 'tkhd');
    if (!tkhd) continue;
    const at = tkhd.start + (moov.getUint8(tkhd.start) === 1 ? 88 : 76);
    if (at + 8 > tkhd.start + tkhd.size) continue;
    // 16.16 fixed point; the matrix may rotate the frame, which does not change its short and long sides.
    width = Math.max(width, Math.round(moov.getUint32(at) / 65536));
    height = Math.max(height, Math.round(moov.getUint32(at + 4) / 65536));
  }
  if (!timescale || !duration || !width || !height) return undefined;
  return { durationSeconds: duration / timescale, width, height };
}

/** The page's own decoder: for files whose container leaves something out. */
export function readVideoElementMetadata(
  blob: Blob,
  signal?: AbortSignal,
  timeoutMs = 15_000,
): Promise<VideoMetadata | undefined> {
  return new Promise((resolve) => {
    const video = document.createElement('video');
    const url = URL.createObjectURL(blob);
    const done = (value: VideoMetadata | undefined) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      video.removeAttribute('src');
      video.load();
      URL.revokeObjectURL(url);
      resolve(value);
    };
    const onAbort = () => done(undefined);
    const timer = setTimeout(onAbort, timeoutMs);
    signal?.addEventListener('abort', onAbort, { once: true });
    video.preload = 'metadata';
    video.muted = true;
    video.onloadedmetadata = () =>
      done(
        Number.isFinite(video.duration) && video.videoWidth > 0
          ? { durationSeconds: video.duration, width: video.videoWidth, height: video.videoHeight }
          : undefined,
      );
    video.onerror = () => done(undefined);
    video.src = url;
  });
}
