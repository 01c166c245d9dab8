/** The trim range's filmstrip: a few small frames spread over the chosen video. */
import { CanvasSink } from 'mediabunny';
import { openVideo } from './fit-video.js';

/**
 * `count` small frames spread over the video (for the trim range's filmstrip), as JPEG blobs;
 * fewer (or none) when frames cannot be read.
 */
export async function filmstrip(file: Blob, durationSeconds: number, count: number, height = 54): Promise<Blob[]> {
  const input = openVideo(file);
  const out: Blob[] = [];
  try {
    const track = await input.getPrimaryVideoTrack();
    if (!track || !(await track.canDecode())) return out;
    const sink = new CanvasSink(track, { height, poolSize: 1 });
    const times = Array.from({ length: count }, (_, k) => ((k + 0.5) / count) * durationSeconds);
    for await (const frame of sink.canvasesAtTimestamps(times)) {
      if (!frame) continue;
      const c = frame.canvas;
      out.push(
        c instanceof OffscreenCanvas
          ? await c.convertToBlob({ type: 'image/jpeg', quality: 0.7 })
          : await new Promise<Blob>((resolve, reject) =>
              c.toBlob((b) => (b ? resolve(b) : reject(new Error('no frame'))), 'image/jpeg', 0.7),
            ),
      );
    }
  } catch {
    // A filmstrip is a help, not a check: the range inputs work without it.
  } finally {
    input.dispose();
  }
  return out;
}
