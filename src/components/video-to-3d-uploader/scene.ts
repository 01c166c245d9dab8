/**
 * `SceneController`: the scene <video-to-3d-uploader> shows: a job's, once it succeeded (or
 * expired but is still kept on this device), loaded once per job as a blob URL for the viewer, with
 * whether it came from this device, why it failed, and whether the job ended while the page was
 * closed; or a kept scene's (a value's asset), shown from its URL. Part of the uploader's lazy
 * running.ts chunk; the viewer (and three.js behind it) loads only when there is a scene to show.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { VideoJob } from '../../api/index.js';
import type { MediaClient } from '../../client/media-client.js';
import type { JobSnapshot } from '../../events/job-events.js';
import type { JobRecord } from '../../jobs/job-store.js';
// Static: this module is itself a lazy chunk's (running.ts). A lazy chunk of a lazy chunk that
// reaches the page's client modules made the bundler split the page's first load into more chunks.
import { resultCache } from '../shared/result-cache.js';

export class SceneController implements ReactiveController {
  readonly host: ReactiveControllerHost & HTMLElement;
  /** The scene's blob URL, once loaded. */
  url: string | undefined;
  /** It came from this device (no download). */
  cached = false;
  /** Why it could not be loaded. */
  error: unknown;
  /** The job ended while the page was closed. */
  away = false;
  readonly #client: () => MediaClient;
  readonly #refresh: () => Promise<JobRecord | undefined>;
  #for = '';
  #blob: { id: string; read: Promise<{ blob: Blob | undefined; cached: boolean }> } | undefined;

  /** `refresh`: polls the job now for fresh download links. */
  constructor(
    host: ReactiveControllerHost & HTMLElement,
    client: () => MediaClient,
    refresh: () => Promise<JobRecord | undefined>,
  ) {
    this.host = host;
    this.#client = client;
    this.#refresh = refresh;
    host.addController(this);
    host.addEventListener('mk-job-succeeded', (e) => (this.away = e.detail.whileAway));
  }

  hostConnected(): void {}

  /** The job on screen: loads its scene once it has one. */
  follow(record: JobRecord | undefined): void {
    if (record && (record.status === 'succeeded' || record.status === 'expired') && this.#for !== record.id)
      void this.#load(record);
  }

  /** Loads the scene of `record` again (after a failure). */
  retry(record: JobRecord | undefined): void {
    this.clear();
    this.follow(record);
  }

  clear(): void {
    // The viewer may still be reading the blob URL: revoke it once the viewer is gone from the page.
    const url = this.url;
    if (url?.startsWith('blob:')) setTimeout(() => URL.revokeObjectURL(url), 30_000);
    this.url = this.error = this.#blob = undefined;
    this.cached = this.away = false;
    this.#for = '';
    this.host.requestUpdate();
  }

  /** Shows a kept scene (a value's `asset.url`, which does not expire) as it is: no job, no API call. */
  async showKept(url: string): Promise<void> {
    this.clear();
    this.#for = url;
    await import('../../viewers/splat-viewer/define.js');
    if (this.#for !== url) return;
    this.url = url;
    this.host.requestUpdate();
  }

  /**
   * The PLY of `record`: from this device's result cache, else downloaded through the proxy (with
   * fresh links when the ones in hand are about to expire) and kept there. Once per job: the viewer
   * and the site's `assetHandler` share the download. Undefined for an expired job not on this device.
   */
  blob(record: JobSnapshot): Promise<{ blob: Blob | undefined; cached: boolean }> {
    if (this.#blob?.id !== record.id) {
      const read = this.#read(record);
      this.#blob = { id: record.id, read };
      // A failed download is tried again on the next ask (the scene's retry button).
      read.catch(() => {
        if (this.#blob?.read === read) this.#blob = undefined;
      });
    }
    return this.#blob.read;
  }

  async #read(record: JobSnapshot): Promise<{ blob: Blob | undefined; cached: boolean }> {
    const output = (record.job as VideoJob | undefined)?.output;
    let blob = await resultCache.get(record.scope, record.id);
    const cached = blob !== undefined;
    if (!blob && output && record.status === 'succeeded') {
      const client = this.#client();
      const fresh =
        record.linksExpireAt !== undefined && record.linksExpireAt < client.serverNow() + 5000
          ? await this.#refresh()
          : record;
      blob = await client.download((fresh?.job as VideoJob | undefined)?.output?.ply_url ?? output.ply_url);
      await resultCache.put(record.scope, record.id, blob);
    }
    return { blob, cached };
  }

  async #load(record: JobRecord): Promise<void> {
    this.#for = record.id;
    try {
      const { blob, cached } = await this.blob(record);
      if (!blob || this.#for !== record.id) return;
      await import('../../viewers/splat-viewer/define.js');
      if (this.#for !== record.id) return;
      this.cached = cached;
      this.url = URL.createObjectURL(blob);
    } catch (err) {
      if (this.#for === record.id) this.error = err;
    }
    this.host.requestUpdate();
  }
}
