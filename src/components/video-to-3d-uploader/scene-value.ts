/**
 * How the jobs <video-to-3d-uploader> shows become its value (value.ts): a running value once a job
 * has its handle, and the committed scene once it succeeded, its PLY kept (the proxy streams it
 * from upstream into the site's store, or the site's `assetHandler` takes the bytes). Part of the
 * lazy running.ts chunk: the page's first load only checks values.
 */
import type { ReactiveControllerHost } from 'lit';
import { jobDetail, type JobSnapshot } from '../../events/job-events.js';
import type { KeepFile, ResultAsset, ResultValueController } from '../shared/result-value.js';
import type { SceneValue } from './value.js';

/** The value of a job the page knows (`status` as given: the job may be further already). */
export function toValue(record: JobSnapshot, status: SceneValue['status']): SceneValue {
  return {
    v: 1,
    kind: 'scene',
    status,
    asset: null,
    job: record.handle!,
    created: new Date(record.createdAt).toISOString(),
    name: String(record.summary['name'] ?? ''),
  };
}

/** What is kept of a succeeded job: its PLY only (the zip holds the same PLY). */
export function files(record: JobSnapshot, blob: () => Promise<Blob>): KeepFile[] {
  const stem = String(record.summary['name'] ?? '').replace(/\.[^.]*$/, '') || 'scene';
  // The type the proxy serves a PLY with (there is no registered one).
  return [{ name: `${stem}.ply`, type: 'application/octet-stream', job: { job: record.handle!, file: 'ply' }, blob }];
}

/** The value once its PLY is kept: the job's handle goes (the kept file outlives the job). */
export function place(value: SceneValue, [asset]: ResultAsset[]): SceneValue {
  const kept: SceneValue = { ...value, asset: asset ?? null };
  delete kept.job;
  return kept;
}

export interface SceneValueOptions {
  results: ResultValueController<SceneValue>;
  /** The bytes of a succeeded job's PLY (for an `assetHandler`): the viewer's own download, not a second one. */
  blob(record: JobSnapshot): Promise<Blob>;
}

/**
 * Listens to the host's job events: a job with a handle that the value does not name yet becomes
 * the running value (`input`); a job that succeeded is committed and kept (`change` once kept); a
 * job this page started that failed takes its running value with it. A value set from outside is
 * the site's: a succeeded one's job ending again is no new result, and no failure of its job erases it.
 */
export function followValue(host: ReactiveControllerHost & HTMLElement, o: SceneValueOptions): (job: string) => void {
  let restored = '';
  const on = (e: Event): void => {
    const r = jobDetail(e);
    if (!r?.handle) return;
    const { results } = o;
    // What the value says of this job: nothing (another job's, or none), running, or succeeded.
    const named = results.value?.job === r.handle ? results.value.status : undefined;
    if (e.type === 'mk-succeeded') {
      if (named !== 'succeeded')
        results.commit(
          toValue(r, 'succeeded'),
          files(r, () => o.blob(r)),
          place,
        );
    } else if (e.type === 'mk-failed') {
      if (named === 'running' && r.handle !== restored) results.update(null);
    } else if (!named) {
      results.update(toValue(r, 'running'));
    }
  };
  for (const type of ['mk-job-created', 'mk-job-progressed', 'mk-succeeded', 'mk-failed'] as const)
    host.addEventListener(type, on);
  // The job of a value set from outside, before it is adopted.
  return (job) => (restored = job);
}
