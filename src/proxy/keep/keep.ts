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
 * This file takes a keep's request apart; the rest is beside it: a keep once (keep-once.ts), the
 * file at a fresh link (fresh-link.ts), the bytes streamed and counted into the store
 * (store-kept.ts, keep-body.ts), reading and removing (read-kept.ts). Under `access` other than
 * 'public', a store's own URL is never answered.
 */
import { ApiError, HEADERS, IDEMPOTENCY_KEY_PATTERN, type Capability } from '../../api/index.js';
import type { Ctx } from '../context.js';
import { fetchJob } from '../edge/files.js';
import { json, refuse } from '../edge/respond.js';
import { FILE_KINDS } from '../edge/rewrite.js';
import type { ProxyOptions } from '../options.js';
import type { ResolvedResults } from '../settings.js';
import type { ByteLedgers } from '../state/state-store.js';
import type { Binding } from '../tokens/handles.js';
import type { Sessions } from '../tokens/session.js';
import type { SessionClaims, VerifiedSession } from '../tokens/tokens.js';
import { fetchFresh } from './fresh-link.js';
import { readKeepJson } from './keep-body.js';
import { KeepOnce, type KeepOutcome } from './keep-once.js';
import { bytesText, NO_RESULT, type KeepDeps } from './kept.js';
import { deleteKept, serveKept } from './read-kept.js';
import { storeKept } from './store-kept.js';

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

const HANDLE_PATTERN = /^[A-Za-z0-9_-]{40,400}$/;
const RESULT_PATH = /^\/results\/([A-Za-z0-9_-]{22,64})(?:\/([A-Za-z0-9._-]{1,100}))?$/;

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

/** Every `{base}/results…` request: keeping, reading and removing kept results. */
export class Keeper {
  readonly #deps: KeepDeps;
  readonly #once: KeepOnce;

  constructor(
    private readonly ctx: Ctx,
    private readonly results: ResolvedResults,
    private readonly ledgers: ByteLedgers,
    private readonly sessions: Sessions,
    authorize: ProxyOptions['authorize'],
  ) {
    this.#deps = { ctx, results, ledgers, sessions, authorize };
    this.#once = new KeepOnce(this.#deps);
  }

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
    if (request.method === 'DELETE') return deleteKept(this.#deps, request, id, cors);
    if (request.method !== 'GET' && request.method !== 'HEAD')
      refuse(
        'method_not_allowed',
        'A kept result takes GET or HEAD (read it) and DELETE with a session token (remove it).',
      );
    if (name === undefined) refuse('not_found', NO_RESULT);
    return serveKept(this.#deps, request, id, name, cors);
  }

  async #keep(request: Request, cors: Record<string, string>): Promise<Response> {
    const session = await this.sessions.authenticate(request);
    const subject = await this.ctx.budget.subjectDigest(session.subject);
    const headers = { ...cors, ...(await this.ctx.budget.rateLimit('keep', subject)) };
    const type = request.headers.get('content-type') ?? '';
    let outcome: KeepOutcome;
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

  async #keepJob(request: Request, session: VerifiedSession, subject: string): Promise<KeepOutcome> {
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
    return this.#once.run(ids, undefined, async (key) => {
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
      const response = await fetchFresh(this.ctx, link);
      let type: string = FILE_KINDS[file as JobFile].type;
      let name: string = FILE_KINDS[file as JobFile].name;
      if (file === 'image') {
        const kind = /^image\/(png|jpeg|webp)\b/i.exec(response.headers.get('content-type') ?? '')?.[1]?.toLowerCase();
        type = kind ? `image/${kind}` : 'application/octet-stream';
        name = `reference.${kind ? IMAGE_EXT[kind as ImageKind] : 'bin'}`;
      }
      const length = response.headers.get('content-length');
      return storeKept(this.#deps, {
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

  async #keepImage(request: Request, session: VerifiedSession, subject: string, kind: ImageKind): Promise<KeepOutcome> {
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
    return this.#once.run(ids, cancel, (id) =>
      storeKept(this.#deps, {
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
}
