/**
 * Sealed values: job handles (the browser's job ids) and download tickets (the browser's file
 * URLs). Both are AES-GCM sealed under the site secret (secrets.ts); a handle is bound to its
 * subject and capability, a ticket carries its subject's digest so downloads count against that
 * subject's poll rate limit. Typed payloads here; compact JSON on the wire.
 *
 * A session with a scope (a team) seals its handles to the scope instead, under a purpose of its
 * own (`scoped-handle`), so every subject of the scope opens them and no subject, whatever its
 * name, opens a scope's handle. Such a handle carries the digest of the subject that was charged,
 * so a failed job's refund goes back to that subject's budget whoever polls it.
 */
import { refuse } from '../edge/respond.js';
import { FILE_KINDS, type FileKind, type Rewriter } from '../edge/rewrite.js';
import type { Keyring } from './secrets.js';
import type { Capability } from '../../api/index.js';

/** What a job handle carries. */
export interface JobHandle {
  /** Upstream job id. */
  jobId: string;
  /** Credits charged at creation (refunded to the budget if the job fails). */
  charged: number;
  /** Budget window the charge went to. */
  window: number;
  /** Digest of the subject that was charged; only in scoped handles (otherwise the subject itself polls). */
  chargedTo?: string;
  /** The scope the handle is bound to (opened as a scoped handle); absent for a subject's own handle. */
  scope?: string;
}

/** Who a handle is bound to: the session's subject, or its scope when it has one. */
export interface Binding {
  subject: string;
  scope?: string | undefined;
}

/** What a download ticket carries. */
export interface FileTicket {
  /** Upstream URL (absolute, or a path on the upstream). */
  url: string;
  kind: FileKind;
  /** Expiry, ms since the epoch. */
  expires: number;
  /** Digest of the subject it was minted for (the poll rate limit it counts against). */
  subject: string;
}

interface HandleWire {
  j: string;
  c: number;
  w: number;
  s?: string;
}

interface TicketWire {
  u: string;
  k: FileKind;
  e: number;
  s: string;
}

/** Opened handles remembered (a handle never changes what it opens to): a poll then costs no decryption. */
const OPENED_MAX = 10_000;

export class Sealer {
  readonly #opened = new Map<string, JobHandle>();

  constructor(
    private readonly keyring: Keyring,
    private readonly basePath: string,
    private readonly downloadTtlMs: number,
  ) {}

  /** Seals a handle to the session's scope when it has one, else to its subject. */
  sealHandle(session: Binding, subjectDigest: string, capability: Capability, h: JobHandle): Promise<string> {
    const wire: HandleWire = { j: h.jobId, c: h.charged, w: h.window };
    if (session.scope === undefined)
      return this.keyring.seal('handle', JSON.stringify(wire), `${capability}\n${session.subject}`);
    wire.s = subjectDigest;
    return this.keyring.seal('scoped-handle', JSON.stringify(wire), `${capability}\n${session.scope}`);
  }

  /** Opens a handle of this session's scope, or of its subject (handles made before it had a scope too). */
  async openHandle(session: Binding, capability: Capability, handle: string): Promise<JobHandle> {
    const cacheKey = JSON.stringify([capability, session.subject, session.scope ?? null, handle]);
    const cached = this.#opened.get(cacheKey);
    if (cached) return cached;
    const opened = await this.#open(session, capability, handle);
    if (this.#opened.size >= OPENED_MAX) this.#opened.delete(this.#opened.keys().next().value!);
    this.#opened.set(cacheKey, opened);
    return opened;
  }

  async #open(session: Binding, capability: Capability, handle: string): Promise<JobHandle> {
    let plain =
      session.scope === undefined
        ? null
        : await this.keyring.open('scoped-handle', handle, `${capability}\n${session.scope}`);
    const scope = plain === null ? undefined : session.scope;
    plain ??= await this.keyring.open('handle', handle, `${capability}\n${session.subject}`);
    const wire = plain ? (JSON.parse(plain) as Partial<HandleWire>) : undefined;
    if (
      !wire ||
      typeof wire.j !== 'string' ||
      typeof wire.c !== 'number' ||
      typeof wire.w !== 'number' ||
      (wire.s !== undefined && typeof wire.s !== 'string')
    ) {
      refuse(
        'not_found',
        'No job with this id exists for this session. Use the job_id this session was given when it created the job.',
      );
    }
    return {
      jobId: wire.j,
      charged: wire.c,
      window: wire.w,
      ...(wire.s !== undefined ? { chargedTo: wire.s } : {}),
      ...(scope !== undefined ? { scope } : {}),
    };
  }

  /** The sealed owner of a kept result (its metadata), bound to the result's key. */
  sealOwner(key: string, owner: Binding): Promise<string> {
    return this.keyring.seal(
      'result',
      JSON.stringify(owner.scope === undefined ? [owner.subject] : [owner.subject, owner.scope]),
      key,
    );
  }

  /** The owner of a kept result, or undefined when its metadata was not sealed by this site (or under a secret it no longer has). */
  async openOwner(key: string, sealed: string): Promise<Binding | undefined> {
    const plain = await this.keyring.open('result', sealed, key);
    if (!plain) return undefined;
    const value = JSON.parse(plain) as unknown;
    if (!Array.isArray(value) || typeof value[0] !== 'string') return undefined;
    return typeof value[1] === 'string' ? { subject: value[0], scope: value[1] } : { subject: value[0] };
  }

  /** A kept result's id under each secret (current first): an HMAC, so it names nothing and no one can make one. */
  async resultIds(message: string): Promise<string[]> {
    return (await this.keyring.resultMacs(message)).map((mac) => mac.slice(0, 32));
  }

  async sealTicket(ticket: FileTicket): Promise<string> {
    const wire: TicketWire = { u: ticket.url, k: ticket.kind, e: ticket.expires, s: ticket.subject };
    return this.keyring.seal('file', JSON.stringify(wire), '');
  }

  async openTicket(sealed: string): Promise<FileTicket> {
    const plain = await this.keyring.open('file', sealed, '');
    const wire = plain ? (JSON.parse(plain) as Partial<TicketWire>) : undefined;
    if (
      !wire ||
      typeof wire.u !== 'string' ||
      typeof wire.k !== 'string' ||
      !(wire.k in FILE_KINDS) ||
      typeof wire.e !== 'number' ||
      typeof wire.s !== 'string'
    ) {
      refuse('link_expired', 'This download link is not valid. Poll the job again for fresh links.');
    }
    if (wire.e < Date.now())
      refuse(
        'link_expired',
        'This download link has expired. Poll the job again (the page does this for you) for fresh links.',
      );
    return { url: wire.u, kind: wire.k, expires: wire.e, subject: wire.s };
  }

  /** How job objects are rewritten for one subject: redacted messages, outputs as that subject's tickets. */
  rewriter(subjectDigest: string, redact: (s: string) => string): Rewriter {
    return {
      redact,
      ticket: async (upstreamUrl, kind, notAfterMs) => {
        const expires = Math.min(
          Date.now() + this.downloadTtlMs,
          notAfterMs !== undefined && Number.isFinite(notAfterMs) ? notAfterMs : Infinity,
        );
        const sealed = await this.sealTicket({ url: upstreamUrl, kind, expires, subject: subjectDigest });
        return {
          url: `${this.basePath}/files/${sealed}/${FILE_KINDS[kind].name}`,
          expiresAt: new Date(expires).toISOString(),
        };
      },
    };
  }
}
