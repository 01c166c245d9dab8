/**
 * multipart/form-data parsed as a stream: text fields are kept (small, capped), file parts are
 * spooled to a temporary file as they arrive (hashed on the way), so a 500 MB upload costs the
 * sandbox a few buffers of memory instead of the body and then the parsed file.
 *
 * Every malformed body is a 400 (invalid_request); a file over its limit is refused as soon as it
 * passes it.
 *
 * Spooled parts never outlive their request unless a job keeps them: a body that breaks (the
 * client hung up) or is refused deletes every part written so far. A process killed mid-upload
 * cannot clean up, so `sweepSpool()` (run when a sandbox starts) removes spool folders older than
 * a day.
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { lstat, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fail } from './http.js';

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
export class SpooledFile {
  #disposed = false;
  /** Set by whoever keeps the file past the request (a job); otherwise it is deleted when the request ends. */
  kept = false;
  constructor(
    readonly path: string,
    readonly name: string,
    readonly type: string,
    readonly size: number,
    readonly sha256: Uint8Array,
    /** The first bytes (format sniffing). */
    readonly head: Uint8Array,
    private readonly dir: string,
  ) {}

  async dispose(): Promise<void> {
    if (this.#disposed) return;
    this.#disposed = true;
    await rm(this.dir, { recursive: true, force: true }).catch(() => undefined);
  }
}

export interface StreamLimits {
  /** Total body bytes. */
  maxBytes: number;
  /** Bytes of one file part. */
  maxFileBytes: number;
  tooLarge: () => never;
}

const MAX_FIELD_BYTES = 64 * 1024;
const MAX_HEADER_BYTES = 16 * 1024;
const MAX_PARTS = 50;
const HEAD_BYTES = 64;
const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');

function malformed(): never {
  return fail(
    'invalid_request',
    'The body is not valid multipart/form-data (check the boundary and that every part is complete).',
  );
}

/** The boundary of a multipart Content-Type, or a 400. */
export function boundaryOf(contentType: string): string {
  const m = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType);
  const b = m?.[1] ?? m?.[2];
  if (!b) malformed();
  return b;
}

interface PartSink {
  name: string;
  filename: string | undefined;
  type: string;
  size: number;
  text?: Buffer[];
  file?: {
    dir: string;
    path: string;
    out: WriteStream;
    hash: ReturnType<typeof createHash>;
    head: Buffer[];
    headSize: number;
  };
}

function parseHeaders(raw: string): { name: string; filename: string | undefined; type: string } {
  let name: string | undefined;
  let filename: string | undefined;
  let type = 'application/octet-stream';
  for (const line of raw.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) malformed();
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === 'content-disposition') {
      if (!/^form-data\s*(;|$)/i.test(value)) malformed();
      const param = (p: string) =>
        new RegExp(`;\\s*${p}="((?:[^"\\\\]|\\\\.)*)"`, 'i').exec(value)?.[1] ??
        new RegExp(`;\\s*${p}=([^";\\s]+)`, 'i').exec(value)?.[1];
      name = param('name');
      filename = param('filename');
    } else if (key === 'content-type') type = value;
  }
  if (name === undefined || name === '') malformed();
  return { name, filename, type };
}

/** Parses `body` into fields; file parts become `SpooledFile`s (the caller disposes them). */
export async function parseMultipartStream(
  body: ReadableStream<Uint8Array> | null,
  contentType: string,
  limits: StreamLimits,
): Promise<Map<string, string | SpooledFile>> {
  const delimiter = Buffer.from('\r\n--' + boundaryOf(contentType));
  const fields = new Map<string, string | SpooledFile>();
  const spooled: SpooledFile[] = [];
  let part: PartSink | undefined;
  // 'preamble' until the first delimiter; then 'after' (what follows a delimiter), 'headers', 'body'; 'end' after the closing one.
  let state = 'preamble' as 'preamble' | 'after' | 'headers' | 'body' | 'end';
  // The body is read as if it began with CRLF, so the first delimiter looks like every other one.
  let buf: Buffer = Buffer.from(CRLF);
  let total = 0;
  let parts = 0;

  const write = async (data: Buffer) => {
    if (!part || data.length === 0) return;
    part.size += data.length;
    if (part.file) {
      if (part.size > limits.maxFileBytes) limits.tooLarge();
      part.file.hash.update(data);
      if (part.file.headSize < HEAD_BYTES) {
        part.file.head.push(data.subarray(0, HEAD_BYTES - part.file.headSize));
        part.file.headSize += Math.min(data.length, HEAD_BYTES - part.file.headSize);
      }
      // Copied: the chunk's memory is reused by the reader. events.once removes both of its
      // listeners ('drain' and 'error') when either fires; a bare once('error') per wait piled up.
      if (!part.file.out.write(Buffer.from(data))) await once(part.file.out, 'drain');
    } else {
      if (part.size > MAX_FIELD_BYTES)
        fail('invalid_request', `The field ${part.name.slice(0, 40)} is longer than 64 KB; send files as file parts.`);
      part.text!.push(Buffer.from(data));
    }
  };

  const finish = async () => {
    if (!part) return;
    const p = part;
    part = undefined;
    if (fields.has(p.name)) {
      if (p.file) {
        p.file.out.destroy();
        await rm(p.file.dir, { recursive: true, force: true });
      }
      fail('invalid_request', `The field ${p.name.slice(0, 40)} appears more than once; send it once.`);
    }
    if (p.file) {
      const f = p.file;
      await new Promise<void>((resolve, reject) => f.out.end((err?: Error | null) => (err ? reject(err) : resolve())));
      const file = new SpooledFile(
        f.path,
        p.filename ?? '',
        p.type,
        p.size,
        new Uint8Array(f.hash.digest()),
        new Uint8Array(Buffer.concat(f.head)),
        f.dir,
      );
      spooled.push(file);
      fields.set(p.name, file);
    } else fields.set(p.name, Buffer.concat(p.text!).toString('utf8'));
  };

  const start = async (headers: string) => {
    if (++parts > MAX_PARTS) fail('invalid_request', `The form has more than ${MAX_PARTS} parts.`);
    const h = parseHeaders(headers);
    part = { name: h.name, filename: h.filename, type: h.type, size: 0 };
    if (h.filename !== undefined) {
      const dir = await mkdtemp(join(tmpdir(), SPOOL_PREFIX));
      const path = join(dir, 'part');
      part.file = { dir, path, out: createWriteStream(path), hash: createHash('sha256'), head: [], headSize: 0 };
    } else part.text = [];
  };

  /** Consumes what `buf` holds; returns false when more input is needed. */
  const step = async (): Promise<boolean> => {
    if (state === 'preamble') {
      const at = buf.indexOf(delimiter);
      if (at < 0) {
        if (buf.length > MAX_HEADER_BYTES) malformed();
        return false;
      }
      buf = buf.subarray(at + delimiter.length);
      state = 'after';
      return true;
    }
    if (state === 'after') {
      // "--" closes the form; otherwise optional spaces, then CRLF, then the part's headers.
      if (buf.length < 2) return false;
      if (buf[0] === 0x2d && buf[1] === 0x2d) {
        state = 'end';
        return false;
      }
      const eol = buf.indexOf(CRLF);
      if (eol < 0) {
        if (buf.length > 256) malformed();
        return false;
      }
      if (!/^[ \t]*$/.test(buf.subarray(0, eol).toString('latin1'))) malformed();
      buf = buf.subarray(eol + 2);
      state = 'headers';
      return true;
    }
    if (state === 'headers') {
      const end = buf.indexOf(HEADER_END);
      if (end < 0) {
        if (buf.length > MAX_HEADER_BYTES) malformed();
        return false;
      }
      await start(buf.subarray(0, end).toString('utf8'));
      buf = buf.subarray(end + 4);
      state = 'body';
      return true;
    }
    if (state === 'body') {
      const at = buf.indexOf(delimiter);
      if (at >= 0) {
        await write(buf.subarray(0, at));
        await finish();
        buf = buf.subarray(at + delimiter.length);
        state = 'after';
        return true;
      }
      // Keep what could be the start of a delimiter split across chunks.
      const keep = Math.min(buf.length, delimiter.length - 1);
      await write(buf.subarray(0, buf.length - keep));
      buf = Buffer.from(buf.subarray(buf.length - keep));
      return false;
    }
    return false;
  };

  try {
    if (!body) return malformed();
    const reader = body.getReader();
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch {
        fail('invalid_request', 'The body ended before it was complete. Send it again.');
      }
      if (chunk.done) break;
      total += chunk.value.byteLength;
      if (total > limits.maxBytes) {
        await reader.cancel().catch(() => undefined);
        limits.tooLarge();
      }
      if ((state as string) === 'end') continue; // the epilogue is ignored
      buf =
        buf.length === 0
          ? Buffer.from(chunk.value.buffer, chunk.value.byteOffset, chunk.value.byteLength)
          : Buffer.concat([buf, chunk.value]);
      while (await step());
    }
    if ((state as string) !== 'end') malformed();
    return fields;
  } catch (err) {
    // A refused or broken body (the client hung up) leaves nothing on disk.
    if (part?.file) {
      part.file.out.destroy();
      await rm(part.file.dir, { recursive: true, force: true }).catch(() => undefined);
    }
    await Promise.all(spooled.map((f) => f.dispose()));
    throw err;
  }
}
