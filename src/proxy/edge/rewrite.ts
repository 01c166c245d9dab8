/**
 * What the browser sees of upstream answers. Job objects are rebuilt field by field from the
 * spec's list (unknown fields are dropped, since any string could carry an upstream id): the job
 * id becomes a sealed handle, every URL becomes a signed proxy download ticket, messages are
 * redacted. Error envelopes keep a known code and a redacted message.
 */
import {
  ERROR_CODES,
  KEY_PREFIXES,
  LIMITS,
  MODEL_STAT_FIELDS,
  type HeadshotStyle,
  type HeadshotVariant,
  type JobError,
  type ModelJob,
  type ModelStats,
  type VideoJob,
} from '../../api/index.js';

/** The kinds of file a ticket serves; each has one fixed Content-Type and file name. */
export const FILE_KINDS = {
  ply: { type: 'application/octet-stream', name: 'scene.ply', attachment: true },
  zip: { type: 'application/zip', name: 'scene.zip', attachment: true },
  glb: { type: 'model/gltf-binary', name: 'model.glb', attachment: false },
  mp4: { type: 'video/mp4', name: 'turntable.mp4', attachment: false },
  image: { type: 'image/png', name: 'reference.png', attachment: false },
} as const;

export type FileKind = keyof typeof FILE_KINDS;

export interface Rewriter {
  /** A signed proxy URL for an upstream URL, and when it stops working (ISO). */
  ticket(upstreamUrl: string, kind: FileKind, notAfterMs?: number): Promise<{ url: string; expiresAt: string }>;
  redact(text: string): string;
}

type Json = Record<string, unknown>;

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const int = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) ? v : undefined);

function jobError(error: unknown, rw: Rewriter): JobError | null {
  if (!error || typeof error !== 'object') return null;
  const e = error as Json;
  return { code: str(e['code']) ?? 'provider_error', message: rw.redact(str(e['message']) ?? 'The job failed.') };
}

export async function videoJobView(data: Json, handle: string, rw: Rewriter): Promise<VideoJob> {
  const out: VideoJob = {
    job_id: handle,
    status: str(data['status']) as VideoJob['status'],
    progress: int(data['progress']) ?? 0,
    output: null,
    error: jobError(data['error'], rw),
  };
  const o = data['output'] as Json | null | undefined;
  if (o && typeof o === 'object' && str(o['ply_url']) && str(o['archive_url'])) {
    const upstreamExpiry = str(o['links_expire_at']) ? Date.parse(o['links_expire_at'] as string) : undefined;
    const ply = await rw.ticket(o['ply_url'] as string, 'ply', upstreamExpiry);
    const zip = await rw.ticket(o['archive_url'] as string, 'zip', upstreamExpiry);
    out.output = { ply_url: ply.url, archive_url: zip.url, kind: 'gaussian_splat_ply', links_expire_at: ply.expiresAt };
  }
  return out;
}

export async function modelJobView(data: Json, handle: string, rw: Rewriter): Promise<ModelJob> {
  const out: ModelJob = {
    job_id: handle,
    status: str(data['status']) as ModelJob['status'],
    progress: int(data['progress']) ?? 0,
    mode: data['mode'] === 'text' ? 'text' : 'image',
    quality: (str(data['quality']) ?? 'standard') as ModelJob['quality'],
    seed: int(data['seed']) ?? 0,
    output: null,
    error: jobError(data['error'], rw),
  };
  if (str(data['reference_image_url']))
    out.reference_image_url = (await rw.ticket(data['reference_image_url'] as string, 'image')).url;
  const o = data['output'] as Json | null | undefined;
  if (o && typeof o === 'object' && str(o['model_url'])) {
    const stats = {} as ModelStats;
    const s = (o['stats'] ?? {}) as Json;
    for (const f of MODEL_STAT_FIELDS) stats[f] = int(s[f]) ?? 0;
    const model = await rw.ticket(o['model_url'] as string, 'glb');
    // The provider's direct link carries the provider's own ids and expiry; the browser gets a
    // ticket that streams the same file through the proxy.
    const provider = str(o['provider_model_url']) ? await rw.ticket(o['provider_model_url'] as string, 'glb') : model;
    const turntable = str(o['turntable_url']) ? await rw.ticket(o['turntable_url'] as string, 'mp4') : undefined;
    const expiries = [model, provider, ...(turntable ? [turntable] : [])].map((t) => t.expiresAt).sort();
    out.output = {
      model_url: model.url,
      provider_model_url: provider.url,
      turntable_url: turntable?.url ?? '',
      stats,
      links_expire_at: expiries[0]!,
    };
  }
  return out;
}

/** Standard base64 (no key prefix or job id fits in its alphabet, so it needs no redaction). */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** A headshot batch rebuilt from the spec's fields; every string redacted or checked. */
export function headshotView(
  data: unknown,
  rw: Pick<Rewriter, 'redact'>,
): { style: HeadshotStyle; variants: HeadshotVariant[] } {
  const d = (data && typeof data === 'object' ? data : {}) as Json;
  const style = (LIMITS.headshot.styles as readonly string[]).includes(str(d['style']) ?? '')
    ? (d['style'] as HeadshotStyle)
    : LIMITS.headshot.defaultStyle;
  const variants: HeadshotVariant[] = [];
  for (const v of Array.isArray(d['variants']) ? (d['variants'] as unknown[]).slice(0, 4) : []) {
    const e = (v && typeof v === 'object' ? v : {}) as Json;
    const slot = int(e['variant']);
    if (slot === undefined || slot < 0 || slot > 3) continue;
    const image = str(e['image_base64']);
    if (e['status'] === 'succeeded' && image !== undefined && BASE64.test(image)) {
      variants.push({
        variant: slot as HeadshotVariant['variant'],
        status: 'succeeded',
        image_base64: image,
        content_type: 'image/png',
        width: int(e['width']) ?? 0,
        height: int(e['height']) ?? 0,
      } as HeadshotVariant);
    } else {
      variants.push({
        variant: slot as HeadshotVariant['variant'],
        status: 'failed',
        error: rw.redact(str(e['error']) ?? 'This variant failed.'),
      } as HeadshotVariant);
    }
  }
  return { style, variants };
}

/** The image tool's JSON result rebuilt from the spec's fields. */
export function imageToolView(data: unknown): { image_base64: string; width: number; height: number } {
  const d = (data && typeof data === 'object' ? data : {}) as Json;
  const image = str(d['image_base64']);
  return {
    image_base64: image !== undefined && BASE64.test(image) ? image : '',
    width: int(d['width']) ?? 0,
    height: int(d['height']) ?? 0,
  };
}

/** Replaces API keys, key prefixes and upstream job ids in a text meant for the browser or a log. */
export function makeRedactor(keys: string[]): (text: string) => string {
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const secrets = keys.filter(Boolean).map(escape);
  const prefixes = Object.values(KEY_PREFIXES).map(escape);
  const pattern = new RegExp([...secrets, `(?:${prefixes.join('|')})[A-Za-z0-9_-]*`].join('|'), 'g');
  return (text) => text.replace(pattern, '[key]').replace(/\bjob_[A-Za-z0-9_-]+/g, '[job]');
}

/** An upstream error envelope's code, when it is one of ours; anything else is generic. */
export function knownCode(code: unknown): string | undefined {
  return typeof code === 'string' && code in ERROR_CODES ? code : undefined;
}
