/** What every part of one proxy shares, and what one routed call carries. */
import type { RouteSpec } from '../api/index.js';
import type { BufferPool } from './body-guard.js';
import type { Budget } from './budget.js';
import type { Sealer } from './handles.js';
import type { Settings } from './options.js';
import type { Log } from './respond.js';
import type { VerifiedSession } from './tokens.js';
import type { Upstream } from './upstream.js';

export interface Ctx {
  settings: Settings;
  basePath: string;
  budget: Budget;
  upstream: Upstream;
  sealer: Sealer;
  pool: BufferPool;
  redact: (text: string) => string;
  log: Log;
}

export interface Call {
  request: Request;
  url: URL;
  route: RouteSpec;
  session: VerifiedSession;
  /** The subject's digest (store keys, tickets). */
  subject: string;
  /** Headers every answer carries (CORS, rate limit). */
  headers: Record<string, string>;
}

/** Reads a body of at most `max` bytes as text; undefined when it is larger or breaks. */
export async function readText(body: ReadableStream<Uint8Array> | null, max: number): Promise<string | undefined> {
  if (!body) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > max) {
        void reader.cancel().catch(() => undefined);
        return undefined;
      }
      chunks.push(value);
    }
  } catch {
    return undefined;
  }
  const decoder = new TextDecoder();
  return chunks.map((c, i) => decoder.decode(c, { stream: i < chunks.length - 1 })).join('');
}

/** Reads a JSON body of at most `max` bytes; undefined when it is not JSON, too large, or breaks. */
export async function readJson(body: ReadableStream<Uint8Array> | null, max: number): Promise<unknown> {
  const text = await readText(body, max);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
