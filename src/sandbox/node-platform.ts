/**
 * The sandbox's Node platform: uploads spooled to temporary files, image URLs fetched with DNS
 * checks on every hop, and the artifact makers built on sharp, ffmpeg and @gltf-transform's NodeIO.
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { lstat, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { removeBackground } from './artifacts/background.js';
import { glbStats } from './artifacts/glb-stats.js';
import { renderHeadshot } from './artifacts/headshot.js';
import { runImageTool } from './artifacts/image-tool.js';
import { renderReference } from './artifacts/reference.js';
import { buildRelief } from './artifacts/relief.js';
import { buildScene } from './artifacts/scene.js';
import { encodeTurntable } from './artifacts/turntable.js';
import type { Hasher, SandboxPlatform, Upload, UploadWriter } from './platform.js';
import { fetchRemoteImage } from './remote-fetch.js';

/** Spool folders are `<os.tmpdir()>/mediakit-upload-XXXXXX`, one per file part. */
const SPOOL_PREFIX = 'mediakit-upload-';
/** No upload or job keeps its part this long; an older folder was left by a process that died. */
const STALE_SPOOL_MS = 24 * 60 * 60 * 1000;

/** Removes spool folders (of any process) not touched for a day. Never throws. */
export async function sweepSpool(now = Date.now()): Promise<void> {
  const root = tmpdir();
  const names = await readdir(root).catch(() => [] as string[]);
  await Promise.all(
    names
      .filter((name) => name.startsWith(SPOOL_PREFIX))
      .map(async (name) => {
        const dir = join(root, name);
        const info = await lstat(dir).catch(() => undefined);
        if (!info?.isDirectory()) return;
        // The part's own mtime moves while it is written; the folder's only when the part is created.
        const part = await lstat(join(dir, 'part')).catch(() => undefined);
        if (now - Math.max(info.mtimeMs, part?.mtimeMs ?? 0) < STALE_SPOOL_MS) return;
        await rm(dir, { recursive: true, force: true }).catch(() => undefined);
      }),
  );
}

/** A file part written to disk. `dispose()` deletes it (idempotent). */
export class SpooledFile implements Upload {
  #disposed = false;
  kept = false;
  constructor(
    readonly path: string,
    readonly name: string,
    readonly type: string,
    readonly size: number,
    readonly sha256: Uint8Array,
    readonly head: Uint8Array,
    private readonly dir: string,
  ) {}

  async bytes(): Promise<Uint8Array> {
    return new Uint8Array(await readFile(this.path));
  }

  async dispose(): Promise<void> {
    if (this.#disposed) return;
    this.#disposed = true;
    await rm(this.dir, { recursive: true, force: true }).catch(() => undefined);
  }
}

async function fileWriter(): Promise<UploadWriter> {
  const dir = await mkdtemp(join(tmpdir(), SPOOL_PREFIX));
  const path = join(dir, 'part');
  const out = createWriteStream(path);
  return {
    async write(chunk) {
      // Copied: the chunk's memory is reused by the reader. events.once removes both of its
      // listeners ('drain' and 'error') when either fires; a bare once('error') per wait piled up.
      if (!out.write(Buffer.from(chunk))) await once(out, 'drain');
    },
    async finish(meta) {
      await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
      return new SpooledFile(path, meta.name, meta.type, meta.size, meta.sha256, meta.head, dir);
    },
    async abort() {
      out.destroy();
      await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    },
  };
}

function sha256(): Hasher {
  const hash = createHash('sha256');
  const hasher: Hasher = {
    update(bytes) {
      hash.update(bytes);
      return hasher;
    },
    digest: () => new Uint8Array(hash.digest()),
  };
  return hasher;
}

export function nodePlatform(): SandboxPlatform {
  return {
    name: 'node',
    sha256,
    spool: fileWriter,
    sweep: sweepSpool,
    fetchImage: fetchRemoteImage,
    async videoSource(video) {
      const { BufferSource, FilePathSource } = await import('mediabunny');
      return video instanceof Uint8Array ? new BufferSource(video) : new FilePathSource((video as SpooledFile).path);
    },
    async decodeSize(bytes) {
      const { info } = await sharp(bytes, { failOn: 'error' }).raw().toBuffer({ resolveWithObject: true });
      return { width: info.width, height: info.height };
    },
    removeBackground,
    async encodePng(rgba, width, height) {
      return new Uint8Array(
        await sharp(rgba, { raw: { width, height, channels: 4 } })
          .png()
          .toBuffer(),
      );
    },
    renderHeadshot,
    runImageTool,
    renderReference,
    buildRelief,
    encodeTurntable,
    buildScene,
    glbStats,
  };
}
