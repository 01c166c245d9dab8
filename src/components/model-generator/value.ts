/**
 * <model-generator>'s value (README "Saving results"): shape 1 of kind `model`. What a running
 * job's value says, what a succeeded job's says once its files are kept (the GLB, the turntable
 * video and, in prompt mode, the reference image), and the files to keep and where they come from.
 * A value set from outside is checked by value-check.ts.
 */
import type { ModelJob, ModelQuality, ModelStats } from '../../api/index.js';
import type { MediaClient, ModelJobInput } from '../../client/media-client.js';
import type { JobRecord } from '../../jobs/job-store.js';
import type { KeepFile, ResultAsset, ResultValueBase } from '../shared/result-value.js';
import { pollerFor } from '../shared/job-history.js';
import { resultCache } from '../shared/result-cache.js';
import type { ModelGeneratorMode } from './types.js';

/** The value of <model-generator>, shape 1. */
export interface ModelValue extends ResultValueBase {
  kind: 'model';
  /** The GLB (`model/gltf-binary`). */
  asset: ResultAsset | null;
  /** The turntable video (`video/mp4`), kept with the model; null when not kept. */
  turntable: ResultAsset | null;
  /** Prompt mode: the reference image the model was built from; null when not kept or in photos mode. */
  poster: ResultAsset | null;
  /** The element's mode the job was made in. */
  mode: ModelGeneratorMode;
  /** Prompt mode: the description. */
  prompt?: string;
  /** Photos mode: how many photos were sent. */
  images?: number;
  /** The seed of the model (the same seed and input make the same model). */
  seed?: number;
  quality: ModelQuality;
  removeBackground: boolean;
  /** The model's statistics, as the result's table shows them (succeeded only). */
  stats?: ModelStats;
}

/** The value of a job shown: running (its handle), or succeeded (its seed and statistics, nothing kept yet). */
export function toValue(record: JobRecord): ModelValue {
  const s = record.summary;
  const job = record.job as ModelJob | undefined;
  const prompt = s['mode'] === 'text';
  const succeeded = record.status === 'succeeded';
  return {
    v: 1,
    kind: 'model',
    status: succeeded ? 'succeeded' : 'running',
    asset: null,
    turntable: null,
    poster: null,
    ...(record.handle ? { job: record.handle } : {}),
    created: new Date(record.createdAt).toISOString(),
    mode: prompt ? 'prompt' : 'photos',
    ...(prompt ? { prompt: String(s['prompt'] ?? '') } : { images: Number(s['images'] ?? 1) }),
    ...(job?.seed !== undefined ? { seed: job.seed } : {}),
    quality: (s['quality'] as ModelQuality | undefined) ?? job?.quality ?? 'standard',
    removeBackground: !prompt && s['removeBackground'] === true,
    ...(succeeded && job?.output ? { stats: { ...job.output.stats } } : {}),
  };
}

/** The summary of a job known only by its value's handle, as `summaryOf` writes it. */
export function summaryOfValue(v: ModelValue): JobRecord['summary'] {
  return {
    mode: v.mode === 'prompt' ? 'text' : 'image',
    quality: v.quality,
    ...(v.mode === 'prompt' ? { prompt: v.prompt ?? '' } : { images: v.images ?? 1 }),
    ...(v.removeBackground ? { removeBackground: true } : {}),
  };
}

/** The request that makes a value's model again without its photos (prompt mode), else undefined. */
export function inputOfValue(v: ModelValue | undefined): ModelJobInput | undefined {
  return v?.mode === 'prompt' && v.prompt ? { mode: 'text', prompt: v.prompt, quality: v.quality } : undefined;
}

/**
 * The files of a succeeded job to keep, and how the kept ones go into its value: the GLB, the
 * turntable and (prompt mode) the reference image. The proxy streams each from upstream by the
 * job's handle; an `assetHandler` gets the bytes: the GLB from this device's cache when it is
 * there, else each through a download link polled fresh when the one in hand is about to expire.
 */
export function keepable(
  record: JobRecord,
  client: MediaClient,
): { files: KeepFile[]; place(value: ModelValue, assets: ResultAsset[]): ModelValue } {
  const handle = record.handle!;
  const job = record.job as ModelJob;
  const fresh = async (pick: (job: ModelJob) => string | undefined): Promise<Blob> => {
    let r: JobRecord | undefined = record;
    if (r.linksExpireAt !== undefined && r.linksExpireAt < client.serverNow() + 5000)
      r = (await (await pollerFor(client)).refresh(r.id)) ?? r;
    const url = pick(r.job as ModelJob);
    if (!url) throw new Error('The job has no such file any more.');
    return client.download(url);
  };
  const files: KeepFile[] = [
    {
      name: 'model.glb',
      type: 'model/gltf-binary',
      job: { job: handle, file: 'glb' },
      blob: async () => (await resultCache.get(record.scope, record.id)) ?? fresh((j) => j.output?.model_url),
    },
  ];
  const turntable = job.output?.turntable_url ? files.push(mp4(handle, fresh)) - 1 : -1;
  const poster = job.reference_image_url ? files.push(png(handle, fresh)) - 1 : -1;
  return {
    files,
    place: (value, assets) => {
      const { job: _kept, ...rest } = value;
      return {
        ...rest,
        asset: assets[0] ?? null,
        turntable: assets[turntable] ?? null,
        poster: assets[poster] ?? null,
      };
    },
  };
}

type Fresh = (pick: (job: ModelJob) => string | undefined) => Promise<Blob>;

const mp4 = (handle: string, fresh: Fresh): KeepFile => ({
  name: 'turntable.mp4',
  type: 'video/mp4',
  job: { job: handle, file: 'mp4' },
  blob: () => fresh((j) => j.output?.turntable_url),
});

const png = (handle: string, fresh: Fresh): KeepFile => ({
  name: 'reference.png',
  type: 'image/png',
  job: { job: handle, file: 'image' },
  blob: () => fresh((j) => j.reference_image_url),
});
