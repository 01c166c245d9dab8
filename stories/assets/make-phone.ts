/**
 * Makes the phone-media stories' files (issue 32: videos and photos as phones make them), small
 * enough to ship, with the system's ffmpeg (libx264, libx265), libheif's heif-enc and sharp:
 *   node --import tsx stories/assets/make-phone.ts
 * - phone-4k.mp4: the demo's walkthrough there and back as a 4K H.264 clip, 6 s at 10 fps (made to fit: scaled to 1080p).
 * - phone-long.mp4: 3 min 20 s (a trim range on a filmstrip), 320x180, a frame every two seconds.
 * - phone-hevc.mov: HEVC in a MOV at 720p, 2 s (within the limits; a browser without HEVC cannot preview it).
 * - phone-hevc-4k.mov: HEVC in a MOV at 4K, 1 s (over 1080p and not readable without HEVC: refused with the device advice).
 * - phone-selfie.heic: the demo's selfie drawn at 6000x8000 (48 MP) as HEIC, as an iPhone's main camera makes it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const walkthrough = here('../../demo/media/walkthrough.mp4');

function run(cmd: string, args: string[]): void {
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed`);
}
const ffmpeg = (...args: string[]) => run('ffmpeg', ['-v', 'error', '-y', ...args]);
const hevc = [
  '-c:v',
  'libx265',
  '-preset',
  'medium',
  '-pix_fmt',
  'yuv420p',
  '-tag:v',
  'hvc1',
  '-x265-params',
  'log-level=error',
];

// Forward then backward (no cut for the frame checks to find), 4K at 10 fps.
// prettier-ignore
ffmpeg('-i', walkthrough, '-filter_complex',
  '[0:v]reverse[r];[0:v][r]concat=n=2:v=1:a=0,scale=3840:2160:flags=bicubic,fps=10[v]', '-map', '[v]', '-t', '6', '-an',
  '-c:v', 'libx264', '-preset', 'slow', '-crf', '36', '-pix_fmt', 'yuv420p', '-g', '60', here('phone-4k.mp4'));
// prettier-ignore
ffmpeg('-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=1/2', '-t', '200',
  '-c:v', 'libx264', '-preset', 'veryslow', '-pix_fmt', 'yuv420p', '-g', '5', '-b:v', '8k', here('phone-long.mp4'));
ffmpeg('-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=10', '-t', '2', '-crf', '36', ...hevc, here('phone-hevc.mov'));
ffmpeg(
  '-f',
  'lavfi',
  '-i',
  'testsrc2=size=3840x2160:rate=5',
  '-t',
  '1',
  '-crf',
  '45',
  ...hevc,
  here('phone-hevc-4k.mov'),
);

// The demo's selfie (demo/samples.ts), drawn in SVG at 48 MP.
const selfie = `<svg xmlns="http://www.w3.org/2000/svg" width="6000" height="8000" viewBox="0 0 768 1024">
  <defs><linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#d9dde3"/><stop offset="1" stop-color="#b8bfc9"/></linearGradient></defs>
  <rect width="768" height="1024" fill="url(#bg)"/>
  <path d="M90 1024C110 800 250 720 384 715C518 720 658 800 678 1024Z" fill="#2d3e5c"/>
  <rect x="334" y="560" width="100" height="180" fill="#d9a27e"/>
  <ellipse cx="384" cy="430" rx="150" ry="190" fill="#d9a27e"/>
  <path d="M219 330A165 120 0 0 1 549 330Z" fill="#3b2a20"/>
  <g fill="#2a1d16"><ellipse cx="325" cy="420" rx="16" ry="10"/><ellipse cx="443" cy="420" rx="16" ry="10"/>
  <rect x="297" y="385" width="56" height="8"/><rect x="415" y="385" width="56" height="8"/></g>
  <path d="M428.5 522.7A50 50 0 0 1 339.5 522.7" fill="none" stroke="#8c4a3c" stroke-width="8"/>
</svg>`;
const scratch = mkdtempSync(join(tmpdir(), 'mediakit-stories-'));
try {
  const png = join(scratch, 'selfie.png');
  await sharp(Buffer.from(selfie), { limitInputPixels: false }).png().toFile(png);
  run('heif-enc', ['-q', '40', png, '-o', here('phone-selfie.heic')]);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

for (const f of ['phone-4k.mp4', 'phone-long.mp4', 'phone-hevc.mov', 'phone-hevc-4k.mov', 'phone-selfie.heic'])
  console.log(`${f} ${statSync(here(f)).size} bytes`);
