/**
 * `SceneController`: the scene <video-to-3d-uploader> shows: a job's, once it succeeded (or
 * expired but is still kept on this device), from its download link (the viewer reads the PLY as it
 * arrives and shows it while it does) or from this device as a blob URL, with
 * whether it came from this device, why it failed, and whether the job ended while the page was
 * closed; or a kept scene's (a value's asset), shown from its URL (the viewer reports when that
 * file is gone). Part of the uploader's lazy
 * running.ts chunk; the viewer (and three.js behind it) loads only when there is a scene to show.
 *
 * This device keeps the scene in the compact form the viewer read it into (`compactScene()`: a
 * .ksplat of what is drawn, about a fifth of a trainer's PLY), once the viewer has shown it; a site
 * that keeps the result (an `assetHandler`) always gets the PLY as the API made it.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { VideoJob } from '../../api/index.js';
import type { MediaClient } from '../../client/media-client.js';
import { jobDetail, type JobSnapshot } from '../../events/job-events.js';
import type { JobRecord } from '../../jobs/job-store.js';
// Static: this module is itself a lazy chunk's (running.ts). A lazy chunk of a lazy chunk that
// reaches the page's client modules made the bundler split the page's first load into more chunks.
import { resultCache } from '../shared/result-cache.js';
import { watchSavedFile } from '../shared/saved-file-gone.js';

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
  /** The kept scene's URL shown (a value's), or ''. */
  #kept = '';
  #blob: { id: string; read: Promise<{ blob: Blob | undefined; cached: boolean }> } | undefined;
  /** The job shown from its download (not this device), to keep in compact form once the viewer shows it. */
  #toKeep: { scope: string; id: string } | undefined;

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
    host.addEventListener('mk-succeeded', (e) => (this.away = jobDetail(e)?.whileAway ?? false));
    host.addEventListener('mk-viewer-loaded', (e) => void this.#keep(e.composedPath()[0]));
    // A kept scene that is gone (404, 410): the uploader says so instead of "ready".
    watchSavedFile(
      host,
      () => [this.#kept],
      (gone) => {
        this.error = gone;
        this.host.requestUpdate();
      },
    );
    // The viewer could not read the download (a link that expired meanwhile, a lost connection):
    // the uploader says so with its retry, which asks for fresh links.
    host.addEventListener('mk-viewer-failed', (e) => {
      if (!this.#toKeep || this.#for !== this.#toKeep.id) return;
      this.error = new Error(e.detail.message);
      this.host.requestUpdate();
    });
  }

  /** The viewer showed the downloaded scene: this device keeps it in the compact form the viewer read it into. */
  async #keep(viewer: EventTarget | undefined): Promise<void> {
    const keep = this.#toKeep;
    if (!keep || this.#for !== keep.id) return;
    this.#toKeep = undefined;
    const compact = (viewer as { compactScene?: () => Blob | undefined } | undefined)?.compactScene?.();
    if (compact) await resultCache.put(keep.scope, keep.id, compact);
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
    this.url = this.error = this.#blob = this.#toKeep = undefined;
    this.cached = this.away = false;
    this.#for = this.#kept = '';
    this.host.requestUpdate();
  }

  /** Shows a kept scene (a value's `asset.url`, which does not expire) as it is: no job, no API call. */
  async showKept(url: string): Promise<void> {
    this.clear();
    this.#for = this.#kept = url;
    await import('../../viewers/splat-viewer/define.js');
    if (this.#for !== url) return;
    this.url = url;
    this.host.requestUpdate();
  }

  /**
   * The scene of `record`: from this device's result cache (its compact form), else the PLY
   * downloaded through the proxy (with fresh links when the ones in hand are about to expire). Once
   * per job: the viewer and the site's `assetHandler` share the download. Undefined for an expired
   * job not on this device.
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
    let blob = await resultCache.get(record.scope, record.id);
    const cached = blob !== undefined;
    if (!blob) {
      const url = await this.#link(record);
      if (url) blob = await this.#client().download(url);
    }
    return { blob, cached };
  }

  /** The PLY's download link of a succeeded job (fresh when the ones in hand are about to expire). */
  async #link(record: JobSnapshot): Promise<string | undefined> {
    const output = (record.job as VideoJob | undefined)?.output;
    if (!output || record.status !== 'succeeded') return undefined;
    const client = this.#client();
    const fresh =
      record.linksExpireAt !== undefined && record.linksExpireAt < client.serverNow() + 5000
        ? await this.#refresh()
        : record;
    return client.fileUrl((fresh?.job as VideoJob | undefined)?.output?.ply_url ?? output.ply_url);
  }

  /**
   * The PLY of `record` as the API made it, for a site that keeps it: the download the viewer
   * shows, or, when the scene on screen came from this device (in compact form), a new download.
   */
  async original(record: JobSnapshot): Promise<Blob | undefined> {
    const shown = await this.blob(record);
    if (!shown.cached || !shown.blob || (await isPly(shown.blob))) return shown.blob;
    const url = await this.#link(record);
    return url ? this.#client().download(url) : undefined;
  }

  async #load(record: JobRecord): Promise<void> {
    this.#for = record.id;
    try {
      // From this device when it kept the scene; else the viewer reads the download itself, as it
      // arrives (a scene of a million splats shows its first splats in seconds, not after 250 MB).
      const kept = await resultCache.get(record.scope, record.id);
      const url = kept ? undefined : await this.#link(record);
      if ((!kept && !url) || this.#for !== record.id) return;
      await import('../../viewers/splat-viewer/define.js');
      if (this.#for !== record.id) return;
      this.cached = kept !== undefined;
      if (!kept) this.#toKeep = { scope: record.scope, id: record.id };
      this.url = kept ? URL.createObjectURL(kept) : url;
    } catch (err) {
      if (this.#for === record.id) this.error = err;
    }
    this.host.requestUpdate();
  }
}

/** A PLY (a cache entry from before scenes were kept in compact form), not a .ksplat. */
async function isPly(blob: Blob): Promise<boolean> {
  return (await blob.slice(0, 4).text()).startsWith('ply');
}
