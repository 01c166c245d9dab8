/**
 * The model <model-generator>'s result view shows, worked out on first load (the job view that
 * draws it is a lazy chunk): a job's, from its links, or a kept one's, from its lasting URLs.
 */
import type { ModelJob } from '../../api/index.js';
import type { JobRecord } from '../../jobs/job-store.js';
import { safeUrl } from '../../internal/safe-url.js';
import type { ModelResultController } from './model-result.js';
import type { ShownModel } from './types.js';
import type { ModelValue } from './value.js';

/** The model the result view shows: the job's (its links, which expire), or a kept one's (lasting URLs). */
export function shownModel(
  record: JobRecord | undefined,
  v: ModelValue | undefined,
  result: ModelResultController,
  absolute: (url: string) => string,
): ShownModel | undefined {
  if (!record && v?.asset) {
    const url = (asset: ModelValue['asset']) => safeUrl(asset?.url) ?? '';
    // Kept files are downloaded as they are: a site's store may sign its URLs, so nothing is added.
    return {
      download: url(v.asset),
      turntable: url(v.turntable),
      poster: url(v.poster) || undefined,
      seed: v.seed,
      stats: v.stats,
      images: v.images ?? 1,
    };
  }
  const job = record?.job as ModelJob | undefined;
  const output = job?.output;
  if (!record || record.status !== 'succeeded' || !job) return undefined;
  const reference = result.reference(record);
  const download = output ? absolute(output.model_url) : '';
  return {
    // The proxy's link answers as an attachment when asked.
    download: download && download + (download.includes('?') ? '&' : '?') + 'download=1',
    turntable: output?.turntable_url ? absolute(output.turntable_url) : '',
    poster: (reference ? absolute(reference) : safeUrl(result.thumbs[record.id])) || undefined,
    seed: job.seed,
    stats: output?.stats,
    images: Number(record.summary['images'] ?? 1),
  };
}
