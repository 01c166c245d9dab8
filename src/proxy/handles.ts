/**
 * Sealed values: job handles (the browser's job ids) and download tickets (the browser's file
 * URLs). Both are AES-GCM sealed under the site secret (secrets.ts); a handle is bound to its
 * subject and capability, a ticket carries its subject's digest so downloads count against that
 * subject's poll rate limit. Typed payloads here; compact JSON on the wire.
 */
import { refuse } from './respond.js';
import { FILE_KINDS, type FileKind, type Rewriter } from './rewrite.js';
import type { Keyring } from './secrets.js';
import type { Capability } from '../api/index.js';

/** What a job handle carries. */
export interface JobHandle {
  /** Upstream job id. */
  jobId: string;
  /** Credits charged at creation (refunded to the budget if the job fails). */
  charged: number;
  /** Budget window the charge went to. */
  window: number;
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

  sealHandle(subject: string, capability: Capability, h: JobHandle): Promise<string> {
    const wire: HandleWire = { j: h.jobId, c: h.charged, w: h.window };
    return this.keyring.seal('handle', JSON.stringify(wire), `${capability}\n${subject}`);
  }

  async openHandle(subject: string, capability: Capability, handle: string): Promise<JobHandle> {
    const cacheKey = `${capability}\n${subject}\n${handle}`;
    const cached = this.#opened.get(cacheKey);
    if (cached) return cached;
    const opened = await this.#open(subject, capability, handle);
    if (this.#opened.size >= OPENED_MAX) this.#opened.delete(this.#opened.keys().next().value!);
    this.#opened.set(cacheKey, opened);
    return opened;
  }

  async #open(subject: string, capability: Capability, handle: string): Promise<JobHandle> {
    const plain = await this.keyring.open('handle', handle, `${capability}\n${subject}`);
    const wire = plain ? (JSON.parse(plain) as Partial<HandleWire>) : undefined;
    if (!wire || typeof wire.j !== 'string' || typeof wire.c !== 'number' || typeof wire.w !== 'number') {
      refuse(
        'not_found',
        'No job with this id exists for this session. Use the job_id this session was given when it created the job.',
      );
    }
    return { jobId: wire.j, charged: wire.c, window: wire.w };
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
