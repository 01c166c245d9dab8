/**
 * multipart/form-data parsed as a stream: text fields are kept (small, capped), file parts go to
 * the platform's spool as they arrive (hashed on the way: Node writes a temporary file, the
 * browser a Blob), so a 500 MB upload costs the sandbox a few buffers of memory instead of the
 * body and then the parsed file.
 *
 * Every malformed body is a 400 (invalid_request); a file over its limit is refused as soon as it
 * passes it.
 *
 * Spooled parts never outlive their request unless a job keeps them: a body that breaks (the
 * client hung up) or is refused drops every part written so far. Platform-free: bytes are
 * Uint8Arrays, never Node Buffers.
 */
import { concatBytes } from '../api/index.js';
import { fail } from './http.js';
import type { Hasher, SandboxPlatform, Upload, UploadWriter } from './platform.js';

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
const encoder = new TextEncoder();
const CRLF = encoder.encode('\r\n');
const HEADER_END = encoder.encode('\r\n\r\n');

/** Where `needle` first occurs in `hay`, or -1 (the first byte is found natively, the rest compared). */
export function indexOfBytes(hay: Uint8Array, needle: Uint8Array, from = 0): number {
  const first = needle[0]!;
  const last = hay.length - needle.length;
  for (let i = hay.indexOf(first, from); i >= 0 && i <= last; i = hay.indexOf(first, i + 1)) {
    let j = 1;
    while (j < needle.length && hay[i + j] === needle[j]) j++;
    if (j === needle.length) return i;
  }
  return -1;
}

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
  text?: Uint8Array[];
  file?: {
    out: UploadWriter;
    hash: Hasher;
    head: Uint8Array[];
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

/** Parses `body` into fields; file parts become the platform's `Upload`s (the caller disposes them). */
export async function parseMultipartStream(
  body: ReadableStream<Uint8Array> | null,
  contentType: string,
  limits: StreamLimits,
  platform: Pick<SandboxPlatform, 'spool' | 'sha256'>,
): Promise<Map<string, string | Upload>> {
  const delimiter = encoder.encode('\r\n--' + boundaryOf(contentType));
  const decoder = new TextDecoder();
  const fields = new Map<string, string | Upload>();
  const spooled: Upload[] = [];
  let part: PartSink | undefined;
  // 'preamble' until the first delimiter; then 'after' (what follows a delimiter), 'headers', 'body'; 'end' after the closing one.
  let state = 'preamble' as 'preamble' | 'after' | 'headers' | 'body' | 'end';
  // The body is read as if it began with CRLF, so the first delimiter looks like every other one.
  let buf: Uint8Array = CRLF.slice();
  let total = 0;
  let parts = 0;

  const write = async (data: Uint8Array) => {
    if (!part || data.length === 0) return;
    part.size += data.length;
    if (part.file) {
      if (part.size > limits.maxFileBytes) limits.tooLarge();
      part.file.hash.update(data);
      if (part.file.headSize < HEAD_BYTES) {
        part.file.head.push(data.subarray(0, HEAD_BYTES - part.file.headSize));
        part.file.headSize += Math.min(data.length, HEAD_BYTES - part.file.headSize);
      }
      // The writer copies what it keeps: the chunk's memory is reused by the reader.
      await part.file.out.write(data);
    } else {
      if (part.size > MAX_FIELD_BYTES)
        fail('invalid_request', `The field ${part.name.slice(0, 40)} is longer than 64 KB; send files as file parts.`);
      part.text!.push(data.slice());
    }
  };

  const finish = async () => {
    if (!part) return;
    const p = part;
    part = undefined;
    if (fields.has(p.name)) {
      if (p.file) await p.file.out.abort();
      fail('invalid_request', `The field ${p.name.slice(0, 40)} appears more than once; send it once.`);
    }
    if (p.file) {
      const f = p.file;
      const file = await f.out.finish({
        name: p.filename ?? '',
        type: p.type,
        size: p.size,
        sha256: f.hash.digest(),
        head: concatBytes(f.head),
      });
      spooled.push(file);
      fields.set(p.name, file);
    } else fields.set(p.name, decoder.decode(concatBytes(p.text!)));
  };

  const start = async (headers: string) => {
    if (++parts > MAX_PARTS) fail('invalid_request', `The form has more than ${MAX_PARTS} parts.`);
    const h = parseHeaders(headers);
    part = { name: h.name, filename: h.filename, type: h.type, size: 0 };
    if (h.filename !== undefined) {
      part.file = { out: await platform.spool(), hash: platform.sha256(), head: [], headSize: 0 };
    } else part.text = [];
  };

  /** Consumes what `buf` holds; returns false when more input is needed. */
  const step = async (): Promise<boolean> => {
    if (state === 'preamble') {
      const at = indexOfBytes(buf, delimiter);
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
      const eol = indexOfBytes(buf, CRLF);
      if (eol < 0) {
        if (buf.length > 256) malformed();
        return false;
      }
      if (!buf.subarray(0, eol).every((b) => b === 0x20 || b === 0x09)) malformed();
      buf = buf.subarray(eol + 2);
      state = 'headers';
      return true;
    }
    if (state === 'headers') {
      const end = indexOfBytes(buf, HEADER_END);
      if (end < 0) {
        if (buf.length > MAX_HEADER_BYTES) malformed();
        return false;
      }
      await start(decoder.decode(buf.subarray(0, end)));
      buf = buf.subarray(end + 4);
      state = 'body';
      return true;
    }
    if (state === 'body') {
      const at = indexOfBytes(buf, delimiter);
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
      buf = buf.slice(buf.length - keep);
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
      buf = buf.length === 0 ? chunk.value : concatBytes([buf, chunk.value]);
      while (await step());
    }
    if ((state as string) !== 'end') malformed();
    return fields;
  } catch (err) {
    // A refused or broken body (the client hung up) leaves nothing on disk.
    if (part?.file) await part.file.out.abort();
    await Promise.all(spooled.map((f) => f.dispose()));
    throw err;
  }
}
