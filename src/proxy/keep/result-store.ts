/**
 * Kept results: where the proxy stores a result a site wants to keep (`results.store`), and the
 * filesystem store. The interface streams both ways, so a 500 MB scene never sits in memory.
 *
 * Node-only code (node:fs) is imported inside `fileResultStore`'s methods, never at the top: the
 * proxy itself stays Web-standard, and importing `@mediakit/elements/proxy` works on Workers,
 * Deno and Bun. The S3 store is its own entry point (`@mediakit/elements/proxy/s3`, s3-result-store.ts),
 * so the AWS SDK loads only for those who use it.
 */

/** What the proxy stores beside a kept result. Every field is ASCII (S3 metadata is sent as headers). */
export interface KeptMeta {
  /** The Content-Type it is served with. */
  type: string;
  /** The file name (letters, digits, `.`, `_`, `-`), also in its URL. */
  name: string;
  /** Who owns it: the keeping subject and its scope, sealed by the proxy (opaque to the store). */
  owner: string;
  /** An opaque tag of the keeping subject (a keyed digest): lets a store group a subject's objects. */
  subject: string;
  /** When it was kept (ISO 8601). */
  created: string;
}

/** A byte range: `start` to `end` inclusive (`end` absent: to the last byte). */
export interface KeptRange {
  start: number;
  end?: number;
}

export interface ResultStore {
  /**
   * Stores the stream under `key`; must stream (never buffer the whole body) and must not leave a
   * partial object under `key` when the stream fails (the proxy deletes the key after a failed put
   * as well). Resolves with the bytes written and, optionally, a permanent public URL of its own
   * (a CDN or public bucket).
   */
  put(key: string, body: ReadableStream<Uint8Array>, meta: KeptMeta): Promise<{ bytes: number; url?: string }>;
  /** The stored object (or the range of it asked for) and its whole size in `bytes`, or null. */
  get(
    key: string,
    range?: KeptRange,
  ): Promise<{ body: ReadableStream<Uint8Array>; meta: KeptMeta; bytes: number } | null>;
  /** Metadata only (null when absent). */
  head(key: string): Promise<{ meta: KeptMeta; bytes: number; url?: string } | null>;
  delete(key: string): Promise<void>;
  /**
   * True when the store answers its own public URLs (a public bucket or CDN): anyone with the link
   * reads the file there, so the proxy refuses any `access` but `'public'` with it.
   */
  readonly publicUrls?: boolean;
}

/** Keys the proxy makes: base64url. A store refuses anything else, so no key walks out of its folder. */
const KEY = /^[A-Za-z0-9_-]{1,200}$/;

export function checkKey(key: string): string {
  if (typeof key !== 'string' || !KEY.test(key))
    throw new TypeError(`result store: a key must be 1-200 letters, digits, "_" or "-"; it was ${typeof key}.`);
  return key;
}

/** Checks a metadata object read back from a store; undefined when it is not one. */
export function keptMetaOf(value: unknown): KeptMeta | undefined {
  const v = value as Partial<KeptMeta> | null;
  if (!v || typeof v !== 'object') return undefined;
  for (const field of ['type', 'name', 'owner', 'subject', 'created'] as const)
    if (typeof v[field] !== 'string') return undefined;
  return { type: v.type!, name: v.name!, owner: v.owner!, subject: v.subject!, created: v.created! };
}

const READ_CHUNK = 256 * 1024;

export interface FileResultStoreOptions {
  /** The folder kept results are written to. */
  dir: string;
  /**
   * A temporary file (`*.part`) not written for this long was left by a process that died
   * mid-keep; the store removes such files the first time it is used. Longer than any pause a live
   * keep makes (the proxy cuts a body idle for `uploadIdleTimeoutMs`). Default 3600 s.
   */
  staleSeconds?: number;
}

/**
 * Kept results as files: `<dir>/<first two characters of the key>/<key>` and a JSON sidecar
 * (`<key>.json`) with the metadata. A put writes a temporary file and renames it into place once
 * the stream has ended, so a failed or cut stream leaves nothing under the key; temporary files a
 * crash left behind are swept when the store is first used.
 */
export function fileResultStore(options: FileResultStoreOptions): ResultStore {
  if (!options || typeof options.dir !== 'string' || options.dir === '')
    throw new TypeError('fileResultStore: `dir` is required: the folder kept results are written to.');
  const staleSeconds = options.staleSeconds ?? 3600;
  if (typeof staleSeconds !== 'number' || !Number.isFinite(staleSeconds) || staleSeconds <= 0)
    throw new TypeError(
      `fileResultStore: staleSeconds must be a positive number of seconds; it was ${String(staleSeconds).slice(0, 40)}.`,
    );
  const root = options.dir;
  const load = async () => {
    const [fs, path] = await Promise.all([import('node:fs/promises'), import('node:path')]);
    return { fs, path };
  };
  let swept: Promise<void> | undefined;
  const modules = async () => {
    const m = await load();
    swept ??= sweep(m.fs, m.path).catch(() => undefined);
    return m;
  };
  /** Removes `*.part` files under the key folders not written for `staleSeconds`. */
  async function sweep(fs: typeof import('node:fs/promises'), path: typeof import('node:path')): Promise<void> {
    const before = Date.now() - staleSeconds * 1000;
    const folders = await fs.readdir(root, { withFileTypes: true }).catch(() => []);
    for (const folder of folders) {
      if (!folder.isDirectory()) continue;
      const dir = path.join(root, folder.name);
      for (const name of await fs.readdir(dir).catch(() => [] as string[])) {
        if (!name.endsWith('.part')) continue;
        const file = path.join(dir, name);
        const stat = await fs.stat(file).catch(() => undefined);
        if (stat && stat.mtimeMs < before) await fs.rm(file, { force: true });
      }
    }
  }
  const paths = async (key: string) => {
    const { path } = await modules();
    const folder = path.join(root, checkKey(key).slice(0, 2));
    return { folder, data: path.join(folder, key), sidecar: path.join(folder, key + '.json') };
  };

  async function head(key: string): Promise<{ meta: KeptMeta; bytes: number } | null> {
    const { fs } = await modules();
    const p = await paths(key);
    let text: string;
    let size: number;
    try {
      [text, size] = await Promise.all([fs.readFile(p.sidecar, 'utf8'), fs.stat(p.data).then((s) => s.size)]);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    const meta = keptMetaOf((JSON.parse(text) as { meta?: unknown }).meta);
    return meta ? { meta, bytes: size } : null;
  }

  return {
    async put(key, body, meta) {
      const { fs } = await modules();
      const p = await paths(key);
      await fs.mkdir(p.folder, { recursive: true });
      const suffix = `.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}.part`;
      const temp = p.data + suffix;
      const file = await fs.open(temp, 'wx');
      let bytes = 0;
      try {
        const reader = body.getReader();
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            let offset = 0;
            while (offset < value.byteLength) {
              const { bytesWritten } = await file.write(value, offset, value.byteLength - offset);
              offset += bytesWritten;
            }
            bytes += value.byteLength;
          }
        } catch (err) {
          await reader.cancel(err).catch(() => undefined);
          throw err;
        }
        await file.sync();
        await file.close();
        await fs.writeFile(p.sidecar + suffix, JSON.stringify({ meta, bytes }));
        await fs.rename(temp, p.data);
        await fs.rename(p.sidecar + suffix, p.sidecar);
        return { bytes };
      } catch (err) {
        await file.close().catch(() => undefined);
        await fs.rm(temp, { force: true });
        await fs.rm(p.sidecar + suffix, { force: true });
        throw err;
      }
    },

    async get(key, range) {
      const { fs } = await modules();
      const p = await paths(key);
      // The file is opened before its sidecar is read: a delete racing this read then either came
      // first (null: gone) or unlinks a file already open, which still reads whole. Reading the
      // sidecar first left a window where the data was gone at open (ENOENT, a 503 for a 404).
      let file: import('node:fs/promises').FileHandle;
      try {
        file = await fs.open(p.data, 'r');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
      let found: { meta: KeptMeta; bytes: number };
      try {
        const [text, stat] = await Promise.all([fs.readFile(p.sidecar, 'utf8'), file.stat()]);
        const meta = keptMetaOf((JSON.parse(text) as { meta?: unknown }).meta);
        if (!meta) {
          await file.close();
          return null;
        }
        found = { meta, bytes: stat.size };
      } catch (err) {
        await file.close().catch(() => undefined);
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
      const start = range?.start ?? 0;
      const end = Math.min(range?.end ?? found.bytes - 1, found.bytes - 1);
      let position = start;
      const body = new ReadableStream<Uint8Array>(
        {
          async pull(controller) {
            try {
              const want = Math.min(READ_CHUNK, end + 1 - position);
              if (want <= 0) {
                await file.close();
                controller.close();
                return;
              }
              const chunk = new Uint8Array(want);
              const { bytesRead } = await file.read(chunk, 0, want, position);
              if (bytesRead === 0) {
                await file.close();
                controller.close();
                return;
              }
              position += bytesRead;
              controller.enqueue(bytesRead === want ? chunk : chunk.subarray(0, bytesRead));
            } catch (err) {
              await file.close().catch(() => undefined);
              controller.error(err);
            }
          },
          async cancel() {
            await file.close().catch(() => undefined);
          },
        },
        { highWaterMark: 1 },
      );
      return { body, meta: found.meta, bytes: found.bytes };
    },

    head,

    async delete(key) {
      const { fs } = await modules();
      const p = await paths(key);
      await fs.rm(p.sidecar, { force: true });
      await fs.rm(p.data, { force: true });
    },
  };
}
