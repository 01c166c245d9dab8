/**
 * Kept results (the `results` option): results that outlive the provider's links.
 *
 * - `POST {base}/results` (session token): a job's file, fetched fresh from upstream and streamed
 *   straight into the site's `ResultStore`, or an image the page holds (headshots, background
 *   removal), streamed the same way. Keeping charges no credits; it counts bytes against the
 *   subject's storage quota, held as the bytes arrive, so a stream that would pass the quota is
 *   cut and nothing stays stored.
 * - `GET|HEAD {base}/results/<id>/<name>`: the kept file, streamed from the store, with ranges.
 * - `DELETE {base}/results/<id>` (session token): removes it and frees the quota.
 *
 * Ids are HMACs (under the site secret) of who keeps what: the same job's file kept twice by the
 * same binding (a subject, or every subject of a scope) is the same id, so a retry or a second
 * editor stores and counts nothing; instances sharing a store keep an id under the store's lock,
 * so two keeping it at once store it once. An id names no job and no subject, and nobody without
 * the secret can make one. The owner (subject, and scope when kept
 * under one) is sealed into the stored metadata.
 *
 * What a keep reads (its JSON body, the bytes it streams, the quota held meanwhile) is in
 * keep-body.ts. Under `access` other than 'public', a store's own URL is never answered.
 */
import { ApiError, HEADERS, IDEMPOTENCY_KEY_PATTERN, type Capability } from '../../api/index.js';
import type { Ctx } from '../context.js';
import { fetchJob, isDownloadOrigin } from '../edge/files.js';
import { countedBody, PendingHold, readKeepJson, type CountedSpec } from './keep-body.js';
import type { Binding } from '../tokens/handles.js';
import type { ProxyOptions, ResolvedResults } from '../options.js';
import { json, messageOf, refuse } from '../edge/respond.js';
import type { KeptMeta, KeptRange } from './result-store.js';
import { FILE_KINDS } from '../edge/rewrite.js';
import type { Sessions } from '../tokens/session.js';
import type { ByteLedgers } from '../state/state-store.js';
import type { SessionClaims, VerifiedSession } from '../tokens/tokens.js';
import { UpstreamFailure } from '../edge/upstream.js';

/** What a keep answers, and what the page stores. */
export interface Kept {
  id: string;
  url: string;
  type: string;
  bytes: number;
  name: string;
}

type JobFile = 'ply' | 'zip' | 'glb' | 'mp4' | 'image';

const JOB_FILES: Record<
  JobFile,
  { capability: Capability; job: 'video' | 'model'; link(data: Record<string, unknown>): unknown }
> = {
  ply: { capability: 'video', job: 'video', link: (d) => (d['output'] as Record<string, unknown> | null)?.['ply_url'] },
  zip: {
    capability: 'video',
    job: 'video',
    link: (d) => (d['output'] as Record<string, unknown> | null)?.['archive_url'],
  },
  glb: {
    capability: 'generate',
    job: 'model',
    link: (d) => (d['output'] as Record<string, unknown> | null)?.['model_url'],
  },
  mp4: {
    capability: 'generate',
    job: 'model',
    link: (d) => (d['output'] as Record<string, unknown> | null)?.['turntable_url'],
  },
  image: { capability: 'generate', job: 'model', link: (d) => d['reference_image_url'] },
};

const IMAGE_EXT = { png: 'png', jpeg: 'jpg', webp: 'webp' } as const;
type ImageKind = keyof typeof IMAGE_EXT;

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

const HANDLE_PATTERN = /^[A-Za-z0-9_-]{40,400}$/;
const RESULT_PATH = /^\/results\/([A-Za-z0-9_-]{22,64})(?:\/([A-Za-z0-9._-]{1,100}))?$/;
const NO_RESULT = 'There is no kept result at this address.';
/** How often a keep that waits for another instance's keep of the same result looks again. */
const LOCK_POLL_MS = 200;

/** Bytes in words for messages: `612 MB`, `1.5 GB`, `300 KB`. */
export function bytesText(n: number): string {
  if (n >= 1e9) return `${Number((n / 1e9).toFixed(n >= 1e10 ? 0 : 1))} GB`;
  if (n >= 1e6) return `${Math.round(n / 1e6)} MB`;
  if (n >= 1e3) return `${Math.round(n / 1e3)} KB`;
  return `${n} bytes`;
}

/** A page's file name as a safe name with the type's extension: `My photo (1).jpeg` -> `My-photo-1.jpg`. */
export function imageName(header: string | null, ext: string): string {
  let raw = header ?? '';
  try {
    raw = decodeURIComponent(raw);
  } catch {
    // Not percent-encoded: taken as it is.
  }
  const last = raw.split(/[\\/]/).pop() ?? '';
  const base = last
    .replace(/\.[^.]*$/, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[.-]+|[.-]+$/g, '')
    .slice(0, 80)
    .replace(/[.-]+$/, '');
  return `${base || 'image'}.${ext}`;
}

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

function sameOwner(owner: Binding, who: Binding): boolean {
  return owner.scope !== undefined ? who.scope === owner.scope : who.subject === owner.subject;
}

interface StoreJob extends CountedSpec {
  key: string;
  type: string;
  name: string;
  owner: Binding;
  session: SessionClaims;
  subject: string;
}

export class Keeper {
  readonly #inflight = new Map<string, Promise<{ kept: Kept; created: boolean }>>();

  constructor(
    private readonly ctx: Ctx,
    private readonly results: ResolvedResults,
    private readonly ledgers: ByteLedgers,
    private readonly sessions: Sessions,
    private readonly authorize: ProxyOptions['authorize'],
  ) {}

  /** `{ quota_bytes, used_bytes }` of a session (its GET and POST /session answers). */
  async usage(claims: SessionClaims, subjectDigest: string): Promise<{ quota_bytes: number; used_bytes: number }> {
    const ledger = await this.ctx.budget.storageLedger(subjectDigest);
    return {
      quota_bytes: claims.storageQuota ?? this.results.quotaBytes,
      used_bytes: await this.ctx.budget.guarded(this.ledgers.bytesUsed(ledger)),
    };
  }

  /** Every `{base}/results…` request. */
  async handle(request: Request, rest: string, cors: Record<string, string>): Promise<Response> {
    if (rest === '/results') {
      if (request.method === 'POST') return this.#keep(request, cors);
      refuse(
        'method_not_allowed',
        `${this.ctx.basePath}/results takes POST (keep a result). Kept results are read at their own URLs; there is no listing.`,
      );
    }
    const m = RESULT_PATH.exec(rest);
    if (!m) refuse('not_found', NO_RESULT);
    const [, id, name] = m as unknown as [string, string, string | undefined];
    if (request.method === 'DELETE') return this.#delete(request, id, cors);
    if (request.method !== 'GET' && request.method !== 'HEAD')
      refuse(
        'method_not_allowed',
        'A kept result takes GET or HEAD (read it) and DELETE with a session token (remove it).',
      );
    if (name === undefined) refuse('not_found', NO_RESULT);
    return this.#serve(request, id, name, cors);
  }

  // ------------------------------------------------------------------ keeping

  async #keep(request: Request, cors: Record<string, string>): Promise<Response> {
    const session = await this.sessions.authenticate(request);
    const subject = await this.ctx.budget.subjectDigest(session.subject);
    const headers = { ...cors, ...(await this.ctx.budget.rateLimit('keep', subject)) };
    const type = request.headers.get('content-type') ?? '';
    let outcome: { kept: Kept; created: boolean };
    if (/^application\/json\s*(;\s*charset="?utf-8"?\s*)?$/i.test(type)) {
      outcome = await this.#keepJob(request, session, subject);
    } else {
      const image = /^image\/(png|jpeg|webp)\s*$/i.exec(type)?.[1]?.toLowerCase() as ImageKind | undefined;
      if (!image) {
        await request.body?.cancel().catch(() => undefined);
        refuse(
          'unsupported_content_type',
          `Keep a job's file with application/json ({ "job", "file" }), or an image with its own type (image/png, image/jpeg or image/webp); the Content-Type was ${type ? `"${type.slice(0, 60)}"` : 'missing'}.`,
        );
      }
      outcome = await this.#keepImage(request, session, subject, image);
    }
    return json({ data: outcome.kept }, outcome.created ? 201 : 200, headers);
  }

  async #keepJob(
    request: Request,
    session: VerifiedSession,
    subject: string,
  ): Promise<{ kept: Kept; created: boolean }> {
    const body = (await readKeepJson(this.ctx, request, subject)) as { job?: unknown; file?: unknown } | undefined;
    if (!body || typeof body !== 'object' || Array.isArray(body))
      refuse('invalid_request', 'Send { "job": "<job_id>", "file": "ply" | "zip" | "glb" | "mp4" | "image" } as JSON.');
    const file = body.file;
    if (typeof file !== 'string' || !Object.hasOwn(JOB_FILES, file))
      refuse(
        'invalid_request',
        'file must be "ply" or "zip" (a video job\'s scene), "glb", "mp4" or "image" (a 3D job\'s model, turntable or reference image).',
      );
    if (typeof body.job !== 'string' || !HANDLE_PATTERN.test(body.job))
      refuse('invalid_request', 'job must be the job_id this session was given when it created the job.');
    const spec = JOB_FILES[file as JobFile];
    const settings = this.ctx.settings;
    if (!settings.keys[spec.capability]) refuse('not_found', `This site has not enabled ${spec.capability}.`);
    if (!session.capabilities.includes(spec.capability))
      refuse('forbidden', `This session may not use ${spec.capability}. The site decides what each user may do.`);
    const handle = await this.ctx.sealer.openHandle(session, spec.capability, body.job);
    const owner: Binding =
      handle.scope !== undefined ? { subject: session.subject, scope: handle.scope } : { subject: session.subject };
    const ids = await this.ctx.sealer.resultIds(JSON.stringify(['job', ...this.#bindingOf(owner), handle.jobId, file]));
    return this.#once(ids, undefined, async (key) => {
      // Fetched fresh, so the links are fresh (a ticket the page holds may have expired).
      const data = await fetchJob(this.ctx, spec.capability, spec.job, handle);
      const status = data['status'];
      if (status === 'expired')
        refuse('expired', 'The provider purged this result before it was kept. Start a new job to make it again.');
      if (status === 'failed') refuse('invalid_request', 'This job failed, so it has no result to keep.');
      if (status !== 'succeeded')
        refuse(
          'invalid_request',
          `This job has not finished yet (it is ${status === 'queued' ? 'queued' : 'processing'}); keep its result once its status is succeeded.`,
        );
      const link = spec.link(data);
      if (typeof link !== 'string' || !link)
        refuse(
          'invalid_request',
          file === 'image'
            ? 'This job has no reference image to keep: only text-mode jobs render one.'
            : `This job has no ${file} file to keep.`,
        );
      const response = await this.#download(link);
      let type: string = FILE_KINDS[file as JobFile].type;
      let name: string = FILE_KINDS[file as JobFile].name;
      if (file === 'image') {
        const kind = /^image\/(png|jpeg|webp)\b/i.exec(response.headers.get('content-type') ?? '')?.[1]?.toLowerCase();
        type = kind ? `image/${kind}` : 'application/octet-stream';
        name = `reference.${kind ? IMAGE_EXT[kind as ImageKind] : 'bin'}`;
      }
      const length = response.headers.get('content-length');
      return this.#store({
        key,
        body: response.body!,
        declared: length && /^\d{1,15}$/.test(length) ? Number(length) : undefined,
        type,
        name,
        owner,
        session,
        subject,
        stalled: () =>
          ApiError.of('upstream_error', 'The media service stopped sending the file, so nothing was kept. Try again.'),
        broken: () =>
          ApiError.of(
            'upstream_error',
            'The media service broke off sending the file, so nothing was kept. Try again.',
          ),
      });
    });
  }

  /** The file at a fresh upstream link (no key goes with it: links are signed), or a refusal in words. */
  async #download(link: string): Promise<Response> {
    const { upstream, settings } = this.ctx;
    const resolved = new URL(link, upstream.base);
    if (resolved.protocol !== 'https:' && resolved.protocol !== 'http:')
      refuse('upstream_error', 'The media service gave a link that cannot be fetched, so nothing was kept.');
    if (!isDownloadOrigin(this.ctx, resolved)) {
      this.ctx.log(
        'warn',
        `a result link names ${resolved.origin}, which is neither the upstream's origin nor in downloadOrigins; nothing was fetched or kept. If it is your provider's storage, add it to downloadOrigins.`,
      );
      refuse('upstream_error', 'The media service gave a link that cannot be fetched, so nothing was kept.');
    }
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new DOMException('upstream timeout', 'TimeoutError')),
      settings.upstreamTimeoutMs,
    );
    let response: Response;
    try {
      // The stream goes on when the page leaves: a retry then finds the result kept (or joins it).
      response = await upstream.call(resolved, { redirect: 'follow' }, controller.signal);
    } catch (err) {
      if (!(err instanceof UpstreamFailure)) throw err;
      this.ctx.log('warn', `keeping a result: ${err.message}`);
      refuse('upstream_error', 'The media service could not be reached, so nothing was kept. Try again in a moment.');
    } finally {
      clearTimeout(timer);
    }
    if (response.ok && response.body) return response;
    await response.body?.cancel().catch(() => undefined);
    if (response.status === 410)
      refuse('expired', 'The provider purged this result before it was kept. Start a new job to make it again.');
    if (response.status === 404) refuse('not_found', 'The provider no longer has this file, so it cannot be kept.');
    this.ctx.log('warn', `keeping a result: upstream answered ${response.status} for a fresh link`);
    refuse('upstream_error', 'The media service refused the file, so nothing was kept. Try again in a moment.');
  }

  async #keepImage(
    request: Request,
    session: VerifiedSession,
    subject: string,
    kind: ImageKind,
  ): Promise<{ kept: Kept; created: boolean }> {
    const cancel = () => request.body?.cancel().catch(() => undefined);
    const key = request.headers.get(HEADERS.idempotencyKey);
    if (key === null || !IDEMPOTENCY_KEY_PATTERN.test(key)) {
      await cancel();
      refuse(
        'invalid_request',
        key === null
          ? 'Keeping an image needs an Idempotency-Key header (a new UUID per image), so that a retry stores it once.'
          : 'Idempotency-Key must be 1-255 printable ASCII characters without spaces (a UUID is ideal).',
      );
    }
    const max = this.results.maxImageBytes;
    const tooLarge = `The image is larger than ${bytesText(max)}, the most this site keeps; keep a smaller image.`;
    const length = request.headers.get('content-length');
    const declared = length !== null && /^\d{1,15}$/.test(length) ? Number(length) : undefined;
    if (declared !== undefined && declared > max) {
      await cancel();
      refuse('payload_too_large', tooLarge);
    }
    if (!request.body || declared === 0) refuse('invalid_request', 'The body is empty: send the image bytes.');
    const owner: Binding =
      session.scope !== undefined ? { subject: session.subject, scope: session.scope } : { subject: session.subject };
    const ids = await this.ctx.sealer.resultIds(JSON.stringify(['image', ...this.#bindingOf(owner), key]));
    return this.#once(ids, cancel, (id) =>
      this.#store({
        key: id,
        body: request.body!,
        declared,
        type: `image/${kind}`,
        name: imageName(request.headers.get('x-mediakit-filename'), IMAGE_EXT[kind]),
        owner,
        session,
        subject,
        max: { bytes: max, message: tooLarge },
        sniff: kind,
        stalled: () =>
          ApiError.of(
            'upload_timeout',
            `The image stopped arriving for ${Math.round(this.ctx.settings.idleMs / 1000)} s, so nothing was kept. Try again.`,
          ),
        broken: () => ApiError.of('invalid_request', 'The image upload was cut off, so nothing was kept. Try again.'),
        deadlineMs: this.ctx.settings.bodyTimeoutMs,
        signal: request.signal,
      }),
    );
  }

  #bindingOf(owner: Binding): [string, string] {
    return owner.scope !== undefined ? ['scope', owner.scope] : ['subject', owner.subject];
  }

  /** The kept result under one of `ids` (made before a secret rotation too), the one being kept now, or a new one. */
  async #once(
    ids: string[],
    skip: (() => unknown) | undefined,
    make: (key: string) => Promise<Kept>,
  ): Promise<{ kept: Kept; created: boolean }> {
    for (const id of ids) {
      const found = await this.#storeCall(this.results.store.head(id));
      if (found) {
        await skip?.();
        return {
          kept: {
            id,
            url: this.#urlOf(id, found.meta.name, found.url),
            type: found.meta.type,
            bytes: found.bytes,
            name: found.meta.name,
          },
          created: false,
        };
      }
    }
    const key = ids[0]!;
    const running = this.#inflight.get(key);
    if (running) {
      await skip?.();
      return { kept: (await running).kept, created: false };
    }
    const promise = this.#locked(key, skip, make).finally(() => this.#inflight.delete(key));
    this.#inflight.set(key, promise);
    return promise;
  }

  /**
   * Keeps under the store's lock of `key`, so that instances sharing a store keep a result once:
   * the lock is an entry of its own byte ledger that holds at most one (taken when no other is
   * there, renewed while the keep runs, dropped after; a proxy that dies mid-keep leaves one that
   * expires). Whoever finds it taken waits for the result to be stored, or takes the lock when
   * its holder gave up, and keeps it then.
   */
  async #locked(
    key: string,
    skip: (() => unknown) | undefined,
    make: (key: string) => Promise<Kept>,
  ): Promise<{ kept: Kept; created: boolean }> {
    const { budget } = this.ctx;
    const ledger = `keep-lock:${key}`;
    const token = crypto.randomUUID();
    const ttl = this.results.holdSeconds;
    const take = () => budget.guarded(this.ledgers.holdBytes(ledger, token, 1, 1, undefined, ttl));
    const stored = async (): Promise<{ kept: Kept; created: boolean } | undefined> => {
      const found = await this.#storeCall(this.results.store.head(key));
      if (!found) return undefined;
      await skip?.();
      return {
        kept: {
          id: key,
          url: this.#urlOf(key, found.meta.name, found.url),
          type: found.meta.type,
          bytes: found.bytes,
          name: found.meta.name,
        },
        created: false,
      };
    };
    while (!(await take()).ok) {
      await new Promise((r) => setTimeout(r, LOCK_POLL_MS));
      const done = await stored();
      if (done) return done;
    }
    const renew = setInterval(() => void take().catch(() => undefined), Math.max(1000, (ttl * 1000) / 3));
    try {
      // Stored by another instance between the first look and the lock.
      return (await stored()) ?? { kept: await make(key), created: true };
    } finally {
      clearInterval(renew);
      await budget
        .guarded(this.ledgers.dropBytes(ledger, token))
        .catch(() => this.ctx.log('error', 'the store failed to drop a keep lock (it expires)'));
    }
  }

  #path(id: string, name: string): string {
    return `${this.ctx.basePath}/results/${id}/${name}`;
  }

  /**
   * Streams `job.body` into the store under `job.key`, counting bytes: the quota is held ahead of
   * the stream (HOLD_STEP at a time, under a pending entry) and the stream is cut when the next
   * hold is refused, when it passes `max`, or when it says more than its Content-Length. Once
   * stored, the pending hold becomes the result's entry in one store step. The pending hold
   * expires unless renewed, and is renewed while the keep runs: a proxy that dies mid-keep holds
   * no quota for good.
   */
  async #store(job: StoreJob): Promise<Kept> {
    const { ctx, ledgers } = this;
    const { budget } = ctx;
    const quota = job.session.storageQuota ?? this.results.quotaBytes;
    const ledger = await budget.storageLedger(job.subject);
    const overQuota = (bytes: number, more: boolean) =>
      ApiError.of(
        'payload_too_large',
        `Keeping this would use ${more ? 'more than ' : ''}${bytesText(bytes)} of your ${bytesText(quota)} storage; remove kept results or ask the site for more.`,
      );
    const hold = new PendingHold(ctx, ledgers, ledger, `pending:${job.key}`, quota, this.results.holdSeconds);
    const counted = countedBody(ctx, job, hold, overQuota);
    if (job.declared !== undefined) {
      const r = await hold.hold(job.declared).catch(async (err: unknown) => {
        await hold.settle();
        await counted.cancel();
        throw err;
      });
      if (!r.ok) {
        await hold.settle();
        await counted.cancel();
        throw overQuota(r.used + job.declared, false);
      }
    }

    const sealer = ctx.sealer;
    let stored: { bytes: number; url?: string };
    try {
      const meta: KeptMeta = {
        type: job.type,
        name: job.name,
        owner: await sealer.sealOwner(job.key, job.owner),
        subject: (await sealer.resultIds(JSON.stringify(['subject', job.session.subject])))[0]!,
        created: new Date().toISOString(),
      };
      stored = await this.results.store.put(job.key, counted.stream, meta);
      if (counted.failure) throw counted.failure;
      await hold.settle();
      await budget.guarded(ledgers.holdBytes(ledger, job.key, counted.total, Number.MAX_SAFE_INTEGER, hold.id));
    } catch (err) {
      await hold.settle();
      await counted.cancel();
      // Nothing half-kept: the store's object (if any) goes, and so does the hold.
      await this.results.store
        .delete(job.key)
        .catch((e: unknown) => ctx.log('error', `the result store failed to delete a failed keep: ${messageOf(e)}`));
      await budget
        .guarded(ledgers.dropBytes(ledger, hold.id))
        .catch(() => ctx.log('error', 'the store failed to drop the quota hold of a failed keep (it expires)'));
      if (counted.failure) throw counted.failure;
      if (err instanceof ApiError) throw err;
      ctx.log('error', `the result store failed to keep a result: ${messageOf(err)}`);
      refuse('unavailable', 'The result could not be stored right now, so nothing was kept. Try again in a moment.', 5);
    }
    return {
      id: job.key,
      url: this.#urlOf(job.key, job.name, stored.url),
      type: job.type,
      bytes: counted.total,
      name: job.name,
    };
  }

  /** A kept result's URL: the store's own public one only where anyone may read it, else the proxy's path. */
  #urlOf(id: string, name: string, storeUrl: string | undefined): string {
    return storeUrl !== undefined && this.results.access === 'public' ? storeUrl : this.#path(id, name);
  }

  /** A result store call; a failure is a 503 in words (and a log line for the site). */
  async #storeCall<T>(op: Promise<T>): Promise<T> {
    try {
      return await op;
    } catch (err) {
      this.ctx.log('error', `the result store failed: ${messageOf(err)}`);
      refuse('unavailable', 'Kept results cannot be reached right now. Try again in a moment.', 5);
    }
  }

  // ------------------------------------------------------------------ reading and removing

  async #serve(request: Request, id: string, name: string, cors: Record<string, string>): Promise<Response> {
    const store = this.results.store;
    const found = await this.#storeCall(store.head(id));
    // A refused read is the same 404 as a missing one: no answer tells that a result exists.
    if (!found || found.meta.name !== name || !(await this.#mayRead(request, id, found.meta)))
      refuse('not_found', NO_RESULT);
    const size = found.bytes;
    const isPublic = this.results.access === 'public';
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
    const got = await this.#storeCall(store.get(id, range));
    if (!got) refuse('not_found', NO_RESULT);
    return new Response(got.body, { status, headers });
  }

  async #mayRead(request: Request, id: string, meta: KeptMeta): Promise<boolean> {
    const access = this.results.access;
    if (access === 'public') return true;
    const owner = await this.ctx.sealer.openOwner(id, meta.owner);
    if (!owner) return false;
    if (typeof access === 'function') {
      try {
        return (await access(request, owner.scope !== undefined ? { ...owner } : { subject: owner.subject })) === true;
      } catch (err) {
        this.ctx.log('error', `results.access threw: ${messageOf(err)}`);
        return false;
      }
    }
    const who = await this.#requester(request);
    return who !== undefined && sameOwner(owner, who);
  }

  /** Who asks for a kept file: a session token's claims, else the site's own `authorize` (its cookies). */
  async #requester(request: Request): Promise<Binding | undefined> {
    if (request.headers.get('authorization')) return this.sessions.authenticate(request).catch(() => undefined);
    try {
      const result = await this.authorize(request);
      if (!result || typeof result.subject !== 'string') return undefined;
      return typeof result.scope === 'string'
        ? { subject: result.subject, scope: result.scope }
        : { subject: result.subject };
    } catch (err) {
      this.ctx.log('error', `authorize() threw: ${messageOf(err)}`);
      return undefined;
    }
  }

  async #delete(request: Request, id: string, cors: Record<string, string>): Promise<Response> {
    const session = await this.sessions.authenticate(request);
    const { budget } = this.ctx;
    const headers = { ...cors, ...(await budget.rateLimit('keep', await budget.subjectDigest(session.subject))) };
    const found = await this.#storeCall(this.results.store.head(id));
    const owner = found ? await this.ctx.sealer.openOwner(id, found.meta.owner) : undefined;
    if (!owner || !sameOwner(owner, session)) refuse('not_found', NO_RESULT);
    await this.#storeCall(this.results.store.delete(id));
    const ledger = await budget.storageLedger(await budget.subjectDigest(owner.subject));
    await budget.guarded(this.ledgers.dropBytes(ledger, id));
    return json({ data: { id, deleted: true } }, 200, headers);
  }
}
