/**
 * Wire types of the media API (`src/api/API-REFERENCE.md`, "Resources and their fields").
 * Field names are the wire's snake_case on purpose: these objects are what travels.
 */

/** `{ data: T }`, the success envelope of every JSON endpoint. */
export interface DataEnvelope<T> {
  data: T;
}

/** Credits fields that charged JSON responses carry beside `data`. */
export interface ChargeFields {
  credits_charged: number;
  credits_remaining: number;
}

// ---------------------------------------------------------------- video to 3D

export type VideoJobStatus = 'queued' | 'processing' | 'succeeded' | 'failed' | 'expired';

export interface VideoJobOutput {
  /** Same-origin path `/api/app/jobs/{job_id}/download?extract=ply&…`: the raw .ply. */
  ply_url: string;
  /** Same-origin path `/api/app/jobs/{job_id}/download?…`: a zip holding the .ply. */
  archive_url: string;
  kind: 'gaussian_splat_ply';
  /**
   * When `ply_url` and `archive_url` stop working (ISO 8601). Not in the spec ("links expire after
   * about 60 minutes"); we state the instant so clients can poll again just before it.
   */
  links_expire_at: string;
}

export interface JobError {
  code: string;
  message: string;
}

export interface VideoJob {
  job_id: string;
  status: VideoJobStatus;
  progress: number;
  output: VideoJobOutput | null;
  error: JobError | null;
}

export type VideoJobCreated = DataEnvelope<Pick<VideoJob, 'job_id' | 'status'>> & ChargeFields;

// ---------------------------------------------------------------- 3D generation

export type ModelJobStatus = 'queued' | 'processing' | 'succeeded' | 'failed';
export type ModelQuality = 'fast' | 'standard' | 'high';
export type ModelMode = 'image' | 'text';

export interface ModelStats {
  triangles: number;
  vertices: number;
  meshes: number;
  materials: number;
  textures: number;
  maxTextureSize: number;
  bytes: number;
  animations: number;
}

/** Every field of `ModelStats`, in the order the spec lists them (each a whole number). */
export const MODEL_STAT_FIELDS: readonly (keyof ModelStats)[] = [
  'triangles',
  'vertices',
  'meshes',
  'materials',
  'textures',
  'maxTextureSize',
  'bytes',
  'animations',
];

export interface ModelJobOutput {
  model_url: string;
  provider_model_url: string;
  turntable_url: string;
  stats: ModelStats;
  /**
   * Not in the spec: when the proxy's download links above stop working (ISO 8601). The proxy
   * states it so clients poll again just before; the upstream itself does not send it.
   */
  links_expire_at?: string;
}

export interface ModelJob {
  job_id: string;
  status: ModelJobStatus;
  progress: number;
  mode: ModelMode;
  quality: ModelQuality;
  /** Always present: the seed given, or the one drawn when none was (spec: "returned when none was supplied"). */
  seed: number;
  /** Text mode only: the square reference image rendered before reconstruction. */
  reference_image_url?: string;
  output: ModelJobOutput | null;
  error: JobError | null;
}

export interface ModelJobRequest {
  mode: ModelMode;
  images?: string[];
  prompt?: string;
  quality?: ModelQuality;
  remove_background?: boolean;
  seed?: number;
}

/**
 * The spec shows only data.job_id and data.status for the 202 ("not shown" beyond that). We answer
 * the whole job resource as of creation, so seed and reference_image_url are known at once, plus
 * the charge fields every charged JSON answer carries.
 */
export type ModelJobCreated = DataEnvelope<ModelJob> & ChargeFields;

// ---------------------------------------------------------------- headshots

export type HeadshotStyle = 'corporate' | 'business-casual' | 'bewerbung' | 'creative';
export type VariantSlot = 0 | 1 | 2 | 3;

export interface HeadshotVariantSucceeded {
  variant: VariantSlot;
  status: 'succeeded';
  image_base64: string;
  content_type: 'image/png';
  width: number;
  height: number;
}

export interface HeadshotVariantFailed {
  variant: VariantSlot;
  status: 'failed';
  error: string;
}

export type HeadshotVariant = HeadshotVariantSucceeded | HeadshotVariantFailed;

export interface HeadshotBatch extends ChargeFields {
  data: { style: HeadshotStyle; variants: HeadshotVariant[] };
}

/** JSON form of the headshot request; multipart sends the same fields (variants as "0,2"). */
export interface HeadshotRequest {
  image_base64?: string;
  image_url?: string;
  style?: HeadshotStyle;
  variants?: VariantSlot[];
}

// ---------------------------------------------------------------- image tools

export type ImageToolOperation = 'remove_background';
export type ImageToolSize = 'auto' | 'preview' | 'full';
export type ImageToolFormat = 'png' | 'jpg';

export interface ImageToolRequest {
  /**
   * The spec does not show which operation the endpoint performs or how one is chosen. It has one:
   * background removal. We accept an optional `operation` naming it, so a second operation can be
   * added later without breaking callers; any other value is a 400.
   */
  operation?: ImageToolOperation;
  image_url?: string;
  image_base64?: string;
  size?: ImageToolSize;
  format?: ImageToolFormat;
  bg_color?: string;
  crop?: boolean;
}

export interface ImageToolResult extends ChargeFields {
  data: { image_base64: string; width: number; height: number };
}

// ---------------------------------------------------------------- account, errors

export interface Account {
  credits: { balance: number };
}

export interface ErrorEnvelope {
  error: { code: string; message: string };
}
