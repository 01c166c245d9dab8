// The page of the upload bench: a <video-to-3d-uploader> given a big (padded) video, timed from
// start() to the first uploaded byte, with the IndexedDB disk use while the upload runs and after.
import '../../src/components/video-to-3d-uploader/define.js';
import { MediaClient } from '../../src/client/media-client.js';
import type { VideoTo3dUploader } from '../../src/components/video-to-3d-uploader/video-to-3d-uploader.js';

async function bigVideo(mb: number): Promise<File> {
  const base = await (await fetch('/__bench/video.mp4')).blob();
  const chunk = new Uint8Array(1024 * 1024);
  for (let i = 0; i < chunk.length; i += 65536) crypto.getRandomValues(chunk.subarray(i, i + 65536));
  // Just under the limit: the video, then a \`free\` box of padding (still a valid MP4).
  const pad = mb * 1024 * 1024 - base.size - 8 - 1024;
  const header = new Uint8Array(8);
  new DataView(header.buffer).setUint32(0, pad + 8);
  header.set([0x66, 0x72, 0x65, 0x65], 4);
  const whole = Math.floor(pad / chunk.length);
  return new File(
    [base, header, ...Array.from({ length: whole }, () => chunk), chunk.subarray(0, pad - whole * chunk.length)],
    'big.mp4',
    { type: 'video/mp4' },
  );
}

const usage = async () => (await navigator.storage.estimate()).usage ?? 0;

async function element(mb: number) {
  const file = await bigVideo(mb);
  const el = document.createElement('video-to-3d-uploader') as VideoTo3dUploader;
  document.body.append(el);
  el.selectFile(file);
  while (el.status !== 'ready') await new Promise((r) => setTimeout(r, 20));
  const before = await usage();
  const t0 = performance.now();
  let firstByte = 0;
  let peak = before;
  el.addEventListener('mk-upload-progressed', (e) => {
    if (!firstByte && e.detail.loaded > 0) firstByte = performance.now() - t0;
  });
  const sampler = setInterval(() => void usage().then((u) => (peak = Math.max(peak, u))), 100);
  await el.start();
  const uploaded = performance.now() - t0;
  clearInterval(sampler);
  await new Promise((r) => setTimeout(r, 500));
  const after = await usage();
  // When the browser gives the disk back (Chromium deletes blob files of IndexedDB lazily).
  const t1 = performance.now();
  let freedMs = -1;
  while (performance.now() - t1 < 60_000) {
    if ((await usage()) - before < 10e6) {
      freedMs = performance.now() - t1 + 500;
      break;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  el.remove();
  return {
    firstByteMs: firstByte,
    uploadMs: uploaded,
    diskDuringMB: (peak - before) / 1e6,
    diskAfterMB: (after - before) / 1e6,
    freedMs,
  };
}

async function plain(mb: number) {
  const file = await bigVideo(mb);
  const client = MediaClient.for('/mediakit');
  await client.session();
  const t0 = performance.now();
  let firstByte = 0;
  await client.createVideoJob(file, { onProgress: (p) => (firstByte ||= p.loaded > 0 ? performance.now() - t0 : 0) });
  return { firstByteMs: firstByte, uploadMs: performance.now() - t0, diskDuringMB: 0, diskAfterMB: 0, freedMs: 0 };
}

Object.assign(window, { bench: { element, plain } });
