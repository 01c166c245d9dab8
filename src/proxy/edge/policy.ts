/**
 * The route policy table: for each route of the API (src/api ROUTES), what the proxy does with it.
 * Dispatch, body handling, pricing, URL checks and the shape of the answer are read from here;
 * adding an endpoint means adding a row.
 */
import { COSTS, headshotCharge, parseVariants, type Capability, type RouteName } from '../../api/index.js';
import type { FileKind } from './rewrite.js';

/** A request body the proxy read: the JSON object or the form. */
export interface ParsedBody {
  json?: Record<string, unknown>;
  form?: FormData;
}

/** The value of a field in a parsed body (multipart: the first). */
export function field(body: ParsedBody, name: string): unknown {
  return body.json ? body.json[name] : (body.form?.get(name) ?? undefined);
}

/** What a charged call's answer becomes for the browser. */
export type ChargedView = 'videoJob' | 'modelJob' | 'headshots' | 'imageTool';

export interface ChargedPolicy {
  kind: 'charged';
  capability: Capability;
  /** Content types taken, in words for the refusal. */
  types: readonly ('json' | 'multipart')[];
  typesText: string;
  /** 'stream': forwarded as it arrives (videos); 'buffer': read whole, parsed, checked, forwarded as checked. */
  body: 'stream' | 'buffer';
  /** A Content-Length is required (the upload is streamed and bounded by it). */
  lengthRequired?: boolean;
  /** The most the call can cost, from the parsed body (undefined for streamed bodies). */
  maxCost(body: ParsedBody | undefined): number;
  /** Fields holding image URLs upstream would fetch: [field name for messages, value]. */
  imageUrls?(body: ParsedBody): [string, unknown][];
  view: ChargedView;
  /** Forward `Accept: application/json` (image tools answer JSON or binary). */
  forwardsAcceptJson?: boolean;
  tooLarge: string;
}

export interface PollPolicy {
  kind: 'poll';
  capability: Capability;
  job: 'video' | 'model';
}

export interface DownloadPolicy {
  kind: 'download';
  capability: Capability;
  /** The file kind served, or 'videoOutput' (the archive, or the .ply with extract=ply, from the job's output). */
  file: FileKind | 'videoOutput';
}

export interface AccountPolicy {
  kind: 'account';
}

export type RoutePolicy = ChargedPolicy | PollPolicy | DownloadPolicy | AccountPolicy;

const IMAGE_TOO_LARGE = 'The request body is too large: images may be at most 12 MB each.';

/** image_url of headshots and image tools (JSON or a multipart text field). */
const imageUrlField = (body: ParsedBody): [string, unknown][] => {
  if (body.form) return body.form.getAll('image_url').map((v) => ['image_url', v]);
  return body.json && 'image_url' in body.json ? [['image_url', body.json['image_url']]] : [];
};

export const POLICIES: Readonly<Record<RouteName, RoutePolicy>> = {
  createVideoJob: {
    kind: 'charged',
    capability: 'video',
    types: ['multipart'],
    typesText: 'multipart/form-data (field video_file)',
    body: 'stream',
    lengthRequired: true,
    maxCost: () => COSTS.videoJob,
    view: 'videoJob',
    tooLarge:
      'The video is larger than 500 MB. Trim or re-encode it (1080p H.264 at a moderate bitrate) and try again.',
  },
  createModelJob: {
    kind: 'charged',
    capability: 'generate',
    types: ['json'],
    typesText: 'application/json',
    body: 'buffer',
    maxCost: () => COSTS.modelJob,
    // Entries that are not data: URLs are fetched upstream.
    imageUrls: (body) => {
      const images = body.json?.['images'];
      return Array.isArray(images)
        ? images
            .map((v, i): [string, unknown] => [`images[${i}]`, v])
            .filter(([, v]) => !(typeof v === 'string' && v.startsWith('data:')))
        : [];
    },
    view: 'modelJob',
    tooLarge: IMAGE_TOO_LARGE,
  },
  headshots: {
    kind: 'charged',
    capability: 'headshot',
    types: ['json', 'multipart'],
    typesText: 'multipart/form-data or application/json',
    body: 'buffer',
    // Exactly upstream's rule (src/api parseVariants): the requested slots, else the full batch.
    maxCost: (body) => {
      const parsed = parseVariants(body ? field(body, 'variants') : undefined);
      return parsed.ok && !parsed.defaulted ? headshotCharge(parsed.slots.length) : COSTS.headshotFullBatch;
    },
    imageUrls: imageUrlField,
    view: 'headshots',
    tooLarge: IMAGE_TOO_LARGE,
  },
  imageTool: {
    kind: 'charged',
    capability: 'imageTools',
    types: ['json', 'multipart'],
    typesText: 'multipart/form-data or application/json',
    body: 'buffer',
    maxCost: () => COSTS.imageTool,
    imageUrls: imageUrlField,
    view: 'imageTool',
    forwardsAcceptJson: true,
    tooLarge: IMAGE_TOO_LARGE,
  },
  getVideoJob: { kind: 'poll', capability: 'video', job: 'video' },
  getModelJob: { kind: 'poll', capability: 'generate', job: 'model' },
  downloadVideoJob: { kind: 'download', capability: 'video', file: 'videoOutput' },
  downloadModel: { kind: 'download', capability: 'generate', file: 'glb' },
  downloadTurntable: { kind: 'download', capability: 'generate', file: 'mp4' },
  downloadReference: { kind: 'download', capability: 'generate', file: 'image' },
  account: { kind: 'account' },
};
