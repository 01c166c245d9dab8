/**
 * `ModelResultController`: the GLB of a succeeded job, from this device's Cache Storage (kit's
 * resultCache, by job) or downloaded through the proxy and kept there, or a kept model's lasting
 * URL (a value set from outside, loaded by the viewer itself, which reports when it is gone); the <glb-viewer> module
 * (and three.js behind it) is imported only once there is a model to show. Also the history
 * cards' thumbnails, kept beside the models and never sent anywhere.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { ModelJob } from '../../api/index.js';
import type { MediaClient } from '../../client/media-client.js';
import type { JobRecord } from '../../jobs/job-store.js';
import { resultCache } from '../shared/result-cache.js';
import { watchSavedFile } from '../shared/saved-file-gone.js';
import { thumbnail } from './photos.js';

const thumbKey = (id: string) => `${id}#thumb`;

export class ModelResultController implements ReactiveController {
  readonly host: ReactiveControllerHost;
  /** The GLB shown, once loaded: a blob: URL, or a kept model's lasting URL. */
  url: string | undefined;
  /** The GLB came from this device, not the network. */
  cached = false;
  error: unknown;
  /** History thumbnails by job id (blob: URLs). */
  thumbs: Record<string, string> = {};
  #for = '';
  /** The kept model's URL shown (a value's), or ''. */
  #kept = '';
  readonly #references = new Map<string, string>();

  constructor(host: ReactiveControllerHost & EventTarget) {
    this.host = host;
    host.addController(this);
    // A kept model that is gone (404, 410): the result view says so instead of "ready".
    watchSavedFile(
      host,
      () => [this.#kept],
      (gone) => {
        this.error = gone;
        host.requestUpdate();
      },
    );
  }

  hostConnected(): void {}

  /**
   * The reference image of a prompt job, as first seen: every poll re-signs its link, and a new
   * `src` would download the same picture again.
   */
  reference(record: JobRecord | undefined): string | undefined {
    const url = (record?.job as ModelJob | undefined)?.reference_image_url;
    if (!record || !url) return undefined;
    if (!this.#references.has(record.id)) this.#references.set(record.id, url);
    return this.#references.get(record.id);
  }

  /** Whether `record`'s model (or the kept model at a URL) is loaded or loading. */
  has(what: JobRecord | string): boolean {
    return this.#for === (typeof what === 'string' ? what : what.id);
  }

  /** Shows a kept model (a value set from outside): the viewer loads it from its lasting URL. */
  async show(url: string): Promise<void> {
    this.#for = this.#kept = url;
    try {
      await import('../../viewers/glb-viewer/define.js');
      if (this.#for === url) this.url = url;
    } catch (err) {
      if (this.#for === url) this.error = err;
    }
    this.host.requestUpdate();
  }

  /** Loads the model of a succeeded job; `refresh` polls for fresh links when they are about to expire. */
  async load(record: JobRecord, client: MediaClient, refresh: () => Promise<JobRecord | undefined>): Promise<void> {
    this.#for = record.id;
    this.#kept = '';
    try {
      let blob = await resultCache.get(record.scope, record.id);
      this.cached = blob !== undefined;
      if (!blob) {
        const fresh =
          record.linksExpireAt !== undefined && record.linksExpireAt < client.serverNow() + 5000
            ? await refresh()
            : record;
        const url = (fresh?.job as ModelJob | undefined)?.output?.model_url;
        if (!url) return;
        blob = await client.download(url);
        await resultCache.put(record.scope, record.id, blob);
      }
      if (this.#for !== record.id) return;
      await import('../../viewers/glb-viewer/define.js');
      if (this.#for !== record.id) return;
      this.url = URL.createObjectURL(blob);
    } catch (err) {
      if (this.#for === record.id) this.error = err;
    }
    this.host.requestUpdate();
  }

  clear(): void {
    // The viewer may still be reading the blob URL: revoke it once the viewer is gone.
    const url = this.url;
    if (url?.startsWith('blob:')) setTimeout(() => URL.revokeObjectURL(url), 30_000);
    this.url = undefined;
    this.cached = false;
    this.error = undefined;
    this.#for = this.#kept = '';
    this.host.requestUpdate();
  }

  /** Keeps a small JPEG of a photo job's first photo for its history card. */
  async keepThumb(record: JobRecord, first: File | string | undefined): Promise<void> {
    const blob = first ? await thumbnail(first) : undefined;
    if (!blob || !(await resultCache.put(record.scope, thumbKey(record.id), blob))) return;
    this.thumbs = { ...this.thumbs, [record.id]: URL.createObjectURL(blob) };
    this.host.requestUpdate();
  }

  /** Reads the kept thumbnails of photo jobs. */
  async readThumbs(records: JobRecord[]): Promise<void> {
    const found: Record<string, string> = {};
    for (const r of records) {
      const blob = r.summary['mode'] === 'image' ? await resultCache.get(r.scope, thumbKey(r.id)) : undefined;
      if (blob) found[r.id] = URL.createObjectURL(blob);
    }
    this.thumbs = { ...found, ...this.thumbs };
    this.host.requestUpdate();
  }
}
