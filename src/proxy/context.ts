/** What every part of one proxy shares, and what one routed call carries. */
import type { RouteSpec } from '../api/index.js';
import type { BufferPool } from './edge/buffered-read.js';
import type { Budget } from './budget/budget.js';
import type { Sealer } from './tokens/handles.js';
import type { Settings } from './settings.js';
import type { Log } from './edge/respond.js';
import type { VerifiedSession } from './tokens/tokens.js';
import type { Upstream } from './edge/upstream.js';

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

export { readJson, readText } from './edge/read-body.js';
