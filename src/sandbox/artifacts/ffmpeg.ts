/**
 * Finds an ffmpeg binary: the static build shipped inside the @ffmpeg-installer npm package (so a
 * fresh clone needs no system package), else `ffmpeg` on PATH (Debian's, in CI).
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

let cached: Promise<string | undefined> | undefined;

export function ffmpegPath(): Promise<string | undefined> {
  cached ??= (async () => {
    const candidates: string[] = [];
    try {
      candidates.push((createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path);
    } catch {
      // Not installed: try PATH.
    }
    candidates.push('ffmpeg');
    for (const bin of candidates) {
      const ok = await run(bin, ['-version']).then(
        () => true,
        () => false,
      );
      if (ok) return bin;
    }
    return undefined;
  })();
  return cached;
}

/** Runs ffmpeg with `args`, feeding `stdin`; resolves with stdout. Rejects with stderr on failure. */
export async function ffmpeg(args: string[], stdin?: Uint8Array): Promise<Uint8Array> {
  const bin = await ffmpegPath();
  if (!bin)
    throw new Error(
      'ffmpeg is not available (the sandbox renders 3D turntables with it): npm install -D @ffmpeg-installer/ffmpeg, or install a system ffmpeg on PATH (apt-get install ffmpeg).',
    );
  return run(bin, args, stdin);
}

function run(bin: string, args: string[], stdin?: Uint8Array): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(new Uint8Array(Buffer.concat(out)));
      else reject(new Error(`ffmpeg exited with ${code}: ${Buffer.concat(err).toString().slice(-500)}`));
    });
    child.stdin.on('error', () => {}); // ffmpeg may close stdin early; the exit code tells.
    child.stdin.end(stdin ? Buffer.from(stdin.buffer, stdin.byteOffset, stdin.byteLength) : undefined);
  });
}
