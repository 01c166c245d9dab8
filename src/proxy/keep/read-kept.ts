/**
 * Reading and removing kept results: `GET|HEAD {base}/results/<id>/<name>` streams the file from
 * the store, with ranges; `DELETE {base}/results/<id>` (session token) removes it and frees the
 * quota. A refused read is the same 404 as a missing one, so no answer tells that a result exists.
 * Under `access: 'owner'` the reader is the owner's subject (or any subject of its scope), known
 * by a session token or by the site's own `authorize` (its cookies).
 */
import { json, messageOf, refuse } from '../edge/respond.js';
import type { Binding } from '../tokens/handles.js';
import { NO_RESULT, sameOwner, storeCall, type KeepDeps } from './kept.js';
import type { KeptMeta, KeptRange } from './result-store.js';

/** The types a kept result is served with; anything else a store reports is served as bytes. */
const SERVED_TYPES = new Set([
  'application/octet-stream',
  'application/zip',
  'model/gltf-binary',
  'video/mp4',
  'image/png',
  'image/jpeg',
  'image/webp',
]);

/** A single `Range: bytes=…` against a size: the range, undefined (serve it all) or 'unsatisfiable'. */
export function parseRange(header: string | null, size: number): Required<KeptRange> | undefined | 'unsatisfiable' {
  const m = header ? /^bytes=(\d{0,15})-(\d{0,15})$/.exec(header.trim()) : null;
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  if (m[1] === '') {
    const n = Number(m[2]);
    if (n === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (m[2] !== '' && Number(m[2]) < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

/** A kept file, whole or a range, to whoever may read it. */
export async function serveKept(
  deps: KeepDeps,
  request: Request,
  id: string,
  name: string,
  cors: Record<string, string>,
): Promise<Response> {
  const store = deps.results.store;
  const found = await storeCall(deps, store.head(id));
  if (!found || found.meta.name !== name || !(await mayRead(deps, request, id, found.meta)))
    refuse('not_found', NO_RESULT);
  const size = found.bytes;
  const isPublic = deps.results.access === 'public';
  const etag = `"${id}"`;
  const headers: Record<string, string> = {
    ...cors,
    'content-type': SERVED_TYPES.has(found.meta.type) ? found.meta.type : 'application/octet-stream',
    'x-content-type-options': 'nosniff',
    'content-disposition': `${new URL(request.url).searchParams.get('download') === '1' ? 'attachment' : 'inline'}; filename="${found.meta.name}"`,
    'content-security-policy': "default-src 'none'; sandbox",
    'referrer-policy': 'no-referrer',
    'accept-ranges': 'bytes',
    'cache-control': isPublic ? 'public, max-age=31536000, immutable' : 'private, no-cache',
    etag,
  };
  if (!isPublic) headers['vary'] = 'Cookie, Authorization';
  if (request.headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers });
  const range = parseRange(request.headers.get('range'), size);
  if (range === 'unsatisfiable')
    return new Response(null, { status: 416, headers: { ...headers, 'content-range': `bytes */${size}` } });
  if (range) headers['content-range'] = `bytes ${range.start}-${range.end}/${size}`;
  headers['content-length'] = String(range ? range.end - range.start + 1 : size);
  const status = range ? 206 : 200;
  if (request.method === 'HEAD') return new Response(null, { status, headers });
  const got = await storeCall(deps, store.get(id, range));
  if (!got) refuse('not_found', NO_RESULT);
  return new Response(got.body, { status, headers });
}

async function mayRead(deps: KeepDeps, request: Request, id: string, meta: KeptMeta): Promise<boolean> {
  const access = deps.results.access;
  if (access === 'public') return true;
  const owner = await deps.ctx.sealer.openOwner(id, meta.owner);
  if (!owner) return false;
  if (typeof access === 'function') {
    try {
      return (await access(request, owner.scope !== undefined ? { ...owner } : { subject: owner.subject })) === true;
    } catch (err) {
      deps.ctx.log('error', `results.access threw: ${messageOf(err)}`);
      return false;
    }
  }
  const who = await requester(deps, request);
  return who !== undefined && sameOwner(owner, who);
}

/** Who asks for a kept file: a session token's claims, else the site's own `authorize` (its cookies). */
async function requester(deps: KeepDeps, request: Request): Promise<Binding | undefined> {
  if (request.headers.get('authorization')) return deps.sessions.authenticate(request).catch(() => undefined);
  try {
    const result = await deps.authorize(request);
    if (!result || typeof result.subject !== 'string') return undefined;
    return typeof result.scope === 'string'
      ? { subject: result.subject, scope: result.scope }
      : { subject: result.subject };
  } catch (err) {
    deps.ctx.log('error', `authorize() threw: ${messageOf(err)}`);
    return undefined;
  }
}

/** Removes a kept result its owner's session asks to remove, and frees its bytes in the quota. */
export async function deleteKept(
  deps: KeepDeps,
  request: Request,
  id: string,
  cors: Record<string, string>,
): Promise<Response> {
  const session = await deps.sessions.authenticate(request);
  const { budget } = deps.ctx;
  const headers = { ...cors, ...(await budget.rateLimit('keep', await budget.subjectDigest(session.subject))) };
  const found = await storeCall(deps, deps.results.store.head(id));
  const owner = found ? await deps.ctx.sealer.openOwner(id, found.meta.owner) : undefined;
  if (!owner || !sameOwner(owner, session)) refuse('not_found', NO_RESULT);
  await storeCall(deps, deps.results.store.delete(id));
  const ledger = await budget.storageLedger(await budget.subjectDigest(owner.subject));
  await budget.guarded(deps.ledgers.dropBytes(ledger, id));
  return json({ data: { id, deleted: true } }, 200, headers);
}
