/**
 * `ResultValueController`: an element's result as a value a site can save, re-open and keep
 * (README "Saving results"). It holds the element's versioned value object, its JSON string (the
 * `value` property and the form value), fires native `input` while the value changes and `change`
 * once per committed result, and keeps what a result is made of where it lasts: in the site's
 * `assetHandler` (a CMS media library), else in the proxy's result store when the session says
 * there is one (`keep` claim), else nowhere, with one console warning that the result will not
 * outlive its links. A value set from outside is checked first (a console warning names what is
 * wrong, and the element stays as it was), then shown by the element with no API call.
 */
import { AssetsReleasedEvent, type AssetsReleasedDetail } from '../../events/assets-released.js';
import { html, nothing, type ReactiveController, type ReactiveControllerHost } from 'lit';
import type { KeepSource, KeptFile, MediaClient } from '../../client/media-client.js';
import { safeUrl } from '../../internal/safe-url.js';
import type { LocalizeController } from './localize.js';
import type { sharedStrings } from './strings.js';

/** A kept file: a URL that does not expire, its type and size (and the store's or the site's id). */
export interface ResultAsset {
  url: string;
  type: string;
  bytes: number;
  id?: string;
}

/** What every element's value has (shape version 1). */
export interface ResultValueBase {
  /** The shape's version. */
  v: 1;
  kind: 'background-removal' | 'headshot' | 'model' | 'scene';
  /** `running`: a job is on its way (`job` names it); `succeeded`: the result is made. */
  status: 'running' | 'succeeded';
  /** The kept file, or null until it is kept (or where nothing keeps it). */
  asset: ResultAsset | null;
  /** The job's handle (never an upstream id): while it runs, and after it unless the result is kept. */
  job?: string;
  /** When the result was made (ISO 8601). */
  created: string;
}

/** What `assetHandler` is told about the file it is handed. */
export interface AssetInfo {
  /**
   * A unique, descriptive name: what the file is and an id, in safe characters
   * (`model-3f9a0c2b1d.glb`, `turntable-3f9a0c2b1d.mp4`, `reference-3f9a0c2b1d.png`). A job's files
   * share the id, and every browser keeping the same job's file names it the same.
   */
  filename: string;
  type: string;
  kind: ResultValueBase['kind'];
  /**
   * The same for this result's file wherever it is kept (every browser following the same job, a
   * retry, a reload): a job's file is keyed by the job, an image this page made by this page. Store
   * it with the media and look it up before storing: a second editor keeping the same result then
   * answers the media the first one stored, so each file is kept once and both values are equal.
   */
  key: string;
}

/** The site's own storage for results (a CMS media library): takes the file, answers where it now lives. */
export type AssetHandler = (blob: Blob, info: AssetInfo) => Promise<{ id?: string; url: string }>;

export type { AssetsReleasedDetail };

/** One file of a result to keep: from a finished job (the proxy streams it), or a blob this page holds. */
export interface KeepFile {
  name: string;
  type: string;
  /** The job file the proxy keeps (`POST /results`), when the result is a job's. */
  job?: Extract<KeepSource, { job: string }>;
  /** The bytes (an `assetHandler` needs them; an image the proxy keeps is sent as they are). */
  blob(): Promise<Blob>;
}

type Host = ReactiveControllerHost &
  HTMLElement & {
    assetHandler: AssetHandler | undefined;
    keep: 'auto' | 'none';
  };

type Keeping = 'idle' | 'keeping' | 'kept' | 'failed';

export interface ResultValueOptions<V extends ResultValueBase> {
  kind: V['kind'];
  /** The client for keeping in the proxy's store. */
  client(): MediaClient;
  /** What is wrong with the element's own fields of a value from outside (undefined: nothing). */
  check(value: Record<string, unknown>): string | undefined;
  /** Shows a value set from outside, with no API call; null: shows nothing (the value was cleared). */
  show(value: V | null): void;
}

const HANDLE = /^[A-Za-z0-9_-]{16,600}$/;
const warned = new Set<string>();

/** Every kept file a value names: its `asset`, a model's `turntable` and `poster`, a batch's variants'. */
export function resultAssets(value: ResultValueBase | null | undefined): ResultAsset[] {
  if (!value) return [];
  const v = value as ResultValueBase & Record<string, unknown>;
  const found: unknown[] = [v.asset, v['turntable'], v['poster']];
  if (Array.isArray(v['variants']))
    for (const variant of v['variants']) found.push((variant as { asset?: unknown })?.asset);
  const seen = new Set<string>();
  return found.filter((a): a is ResultAsset => {
    if (!a || typeof a !== 'object' || typeof (a as ResultAsset).url !== 'string') return false;
    const url = (a as ResultAsset).url;
    return !seen.has(url) && !!seen.add(url);
  });
}

/**
 * A file's unique, descriptive name: its stem (what it is) in safe characters, `-`, the id, its
 * extension: `model.glb` and `3f9a0c2b1d` make `model-3f9a0c2b1d.glb`.
 */
export function uniqueName(name: string, id: string): string {
  const dot = name.lastIndexOf('.');
  const ext =
    dot > 0
      ? name
          .slice(dot + 1)
          .replace(/[^A-Za-z0-9]+/g, '')
          .slice(0, 8)
          .toLowerCase()
      : '';
  const stem = (dot > 0 ? name.slice(0, dot) : name)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '')
    .slice(0, 60)
    .replace(/[-_]+$/, '');
  return `${stem || 'result'}-${id}${ext ? `.${ext}` : ''}`;
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** What is wrong with a value's common fields (undefined: nothing). */
export function checkBase(value: unknown, kind: string): string | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return 'it is not a JSON object';
  const v = value as Record<string, unknown>;
  if (v['v'] !== 1) return `"v" must be 1 (this version reads shape 1); it is ${JSON.stringify(v['v'])}`;
  if (v['kind'] !== kind) return `"kind" must be "${kind}" for this element; it is ${JSON.stringify(v['kind'])}`;
  if (v['status'] !== 'running' && v['status'] !== 'succeeded')
    return `"status" must be "running" or "succeeded"; it is ${JSON.stringify(v['status'])}`;
  const assetProblem = checkAsset(v['asset'], 'asset');
  if (assetProblem) return assetProblem;
  if (v['job'] !== undefined && (typeof v['job'] !== 'string' || !HANDLE.test(v['job'])))
    return '"job" must be the job handle this library wrote';
  if (v['status'] === 'running' && v['job'] === undefined) return 'a running value needs its "job" handle';
  // A headshot batch is made at once (no job) and its `asset` waits for the user's choice: its kept variants are checked by the element.
  if (v['status'] === 'succeeded' && v['asset'] === null && v['job'] === undefined && kind !== 'headshot')
    return 'a succeeded value needs its kept "asset" or its "job" handle';
  if (typeof v['created'] !== 'string' || Number.isNaN(Date.parse(v['created'])))
    return '"created" must be an ISO 8601 date';
  return undefined;
}

/** What is wrong with an asset (null allowed) at `where` (undefined: nothing). */
export function checkAsset(asset: unknown, where: string, nullable = true): string | undefined {
  if (asset === null && nullable) return undefined;
  if (!asset || typeof asset !== 'object')
    return `"${where}" must be { url, type, bytes }${nullable ? ' or null' : ''}`;
  const a = asset as Record<string, unknown>;
  if (typeof a['url'] !== 'string' || !safeUrl(a['url']) || /^(blob|data):/i.test(a['url']))
    return `"${where}.url" must be an http(s) URL or a path (no blob:, data: or script URL)`;
  if (typeof a['type'] !== 'string' || !/^[a-z]+\/[A-Za-z0-9.+-]+$/.test(a['type']))
    return `"${where}.type" must be a media type such as "image/png"`;
  if (typeof a['bytes'] !== 'number' || !Number.isInteger(a['bytes']) || a['bytes'] < 0)
    return `"${where}.bytes" must be a whole number of bytes`;
  if (a['id'] !== undefined && typeof a['id'] !== 'string') return `"${where}.id" must be a string`;
  return undefined;
}

export class ResultValueController<V extends ResultValueBase> implements ReactiveController {
  readonly #host: Host;
  readonly #o: ResultValueOptions<V>;
  #value: V | null = null;
  #json = '';
  /** The last value handed in from outside, and whether the element has worked on since (see `set`). */
  #given: string | undefined;
  #working = false;
  #keeping: Keeping = 'idle';
  #retry: (() => void) | undefined;
  #run = 0;
  /** The kept files of the value the site holds (set from outside, or committed): released when they leave it. */
  #held: ResultAsset[] = [];

  constructor(host: Host, options: ResultValueOptions<V>) {
    this.#host = host;
    this.#o = options;
    host.addController(this);
  }

  hostDisconnected(): void {
    // A keep that is out still lands (the value is the site's); nothing to stop.
  }

  /** The value object now (null: none). */
  get value(): V | null {
    return this.#value;
  }

  /** The value as JSON ('' when none): the `value` property and the form value. */
  get json(): string {
    return this.#json;
  }

  /** Where keeping stands (for the element's status line and tests). */
  get keeping(): Keeping {
    return this.#keeping;
  }

  /**
   * A value from outside (the `value` property or attribute, a restored form): checked, then shown
   * with no API call. An invalid one is refused with a console warning; nothing changes. No event
   * fires (as with an input's `value`). The value handed in last, handed in again while the
   * element works on (it fired `input` since, and no `change` yet), changes nothing: a framework
   * that sets every property on every render (React's wrappers do) must not wipe the job or the
   * result the user is making because its state has not caught up yet.
   */
  set(json: string): void {
    const again = json === this.#given && this.#working;
    this.#given = json;
    if (!again) this.restore(json);
  }

  /** Shows a value the element had before (field mode's Replace, closed with nothing new): as `set`. */
  restore(json: string): void {
    this.#working = false;
    if (json === this.#json) return;
    if (json === '' || json === null || json === undefined) {
      this.#apply(null);
      this.#o.show(null);
      return;
    }
    let parsed: unknown;
    try {
      parsed = typeof json === 'string' ? JSON.parse(json) : json;
    } catch {
      warn(`<${this.#host.localName}> value refused: it is not JSON. The element is unchanged.`);
      return;
    }
    const problem = checkBase(parsed, this.#o.kind) ?? this.#o.check(parsed as Record<string, unknown>);
    if (problem) {
      warn(`<${this.#host.localName}> value refused: ${problem}. The element is unchanged.`);
      return;
    }
    this.#run++;
    this.#keeping = 'idle';
    this.#apply(parsed as V);
    this.#held = resultAssets(parsed as V);
    this.#o.show(parsed as V);
  }

  /** The element's own value while it works (a job started, a choice made): fires `input`. */
  update(value: V | null): void {
    if (this.#apply(value)) {
      // A value that became nothing (a failure) is no newer work: the host may set its own again.
      this.#working = value !== null;
      this.#fire('input');
    }
  }

  /** The element starts on something new (field mode's Replace): the value set last, set again, is ignored. */
  working(): void {
    this.#working = true;
  }

  /** Forgets the value without events (a reset, a new input): the element shows nothing. */
  clear(): void {
    this.#working = false;
    this.#run++;
    this.#keeping = 'idle';
    this.#retry = undefined;
    this.#apply(null);
  }

  /** The user removed the result: the value is cleared and `change` fires. */
  remove(): void {
    const had = this.#value !== null;
    this.clear();
    if (had) {
      this.#fire('change');
      this.#release('removed');
    }
  }

  /**
   * A result was committed (a job succeeded, a headshot chosen): the value (assets not kept yet)
   * fires `input`, its files are kept (the site's handler, else the proxy's store), and `change`
   * fires once with the value that names them. `place` puts the kept assets into the value.
   */
  commit(value: V, files: readonly KeepFile[], place: (value: V, assets: ResultAsset[]) => V): void {
    const run = ++this.#run;
    this.update(value);
    const go = (): void => void this.#keep(run, value, files, place);
    this.#retry = go;
    go();
  }

  /** Tries keeping again after it failed (the status line's button). */
  retry(): void {
    if (this.#keeping === 'failed') this.#retry?.();
  }

  /** The status line while keeping, after it failed (with its retry button), and briefly when saved. */
  render(t: LocalizeController<typeof sharedStrings>) {
    switch (this.#keeping) {
      case 'keeping':
        return html`<p part="keep" class="keep" role="status">${t.term('keepSaving')}</p>`;
      case 'kept':
        return html`<p part="keep" class="keep" role="status">${t.term('keepSaved')}</p>`;
      case 'failed':
        return html`<p part="keep" class="keep failed" role="alert">
          ${t.term('keepFailed')}
          <button type="button" class="button" part="keep-retry" @click=${() => this.retry()}>
            ${t.term('keepRetry')}
          </button>
        </p>`;
      default:
        return nothing;
    }
  }

  async #keep(run: number, value: V, files: readonly KeepFile[], place: (v: V, a: ResultAsset[]) => V): Promise<void> {
    // `keep="none"`: nothing keeps the result, not even the site's handler.
    const handler = this.#host.keep === 'none' ? undefined : this.#host.assetHandler;
    const client = this.#o.client();
    let store = false;
    if (!handler && this.#host.keep !== 'none' && files.length) {
      store = await client.session().then(
        (s) => s.keep,
        () => false,
      );
    }
    if (run !== this.#run) return;
    if (!files.length || (!handler && !store)) {
      if (files.length && this.#host.keep !== 'none') {
        warn(
          `<${this.#host.localName}>: nothing keeps this result (no assetHandler, and the proxy has no results store), so its value has "asset": null and it will not outlive its links. See README "Saving results".`,
          this.#host.localName,
        );
      }
      this.#keeping = 'idle';
      this.#fire('change');
      this.#release('replaced');
      return;
    }
    this.#keeping = 'keeping';
    this.#host.requestUpdate();
    try {
      const assets: ResultAsset[] = [];
      for (const file of files) {
        if (run !== this.#run) return;
        const named = await this.#named(file);
        assets.push(
          handler ? await this.#handOver(handler, file, named) : asset(await this.#store(client, file, named)),
        );
      }
      if (run !== this.#run) return;
      this.#keeping = 'kept';
      this.#apply(place(value, assets));
      this.#fire('change');
      this.#release('replaced');
    } catch (err) {
      if (run !== this.#run) return;
      console.warn(`[mediakit] <${this.#host.localName}> could not keep the result`, err);
      this.#keeping = 'failed';
      this.#host.requestUpdate();
    }
  }

  async #handOver(handler: AssetHandler, file: KeepFile, named: Named): Promise<ResultAsset> {
    const blob = await file.blob();
    const answer = await handler(blob, {
      filename: named.filename,
      type: file.type,
      kind: this.#o.kind,
      key: named.key,
    });
    const problem = checkAsset({ url: answer?.url, type: file.type, bytes: blob.size }, 'assetHandler() result', false);
    if (problem) throw new TypeError(`assetHandler must resolve to { url, id? }: ${problem}.`);
    return { url: answer.url, type: file.type, bytes: blob.size, ...(answer.id ? { id: String(answer.id) } : {}) };
  }

  /** One key per file of this commit, so a retry keeps it once. */
  readonly #keys = new WeakMap<KeepFile, string>();

  /**
   * A file's key and unique name: a job's file by its job (the same in every browser that follows
   * it: a hash of the handle, which names no job upstream), an image this page holds by a key of its own.
   */
  async #named(file: KeepFile): Promise<Named> {
    let key = this.#keys.get(file);
    if (!key) this.#keys.set(file, (key = crypto.randomUUID()));
    if (file.job) {
      const digest = await sha256Hex(`mediakit result\n${file.job.job}`);
      return {
        key: `${this.#o.kind}-${digest.slice(0, 32)}-${file.job.file}`,
        filename: uniqueName(file.name, digest.slice(0, 10)),
        idempotency: key,
      };
    }
    const id = key.replace(/-/g, '');
    return { key: `${this.#o.kind}-${id}`, filename: uniqueName(file.name, id.slice(0, 10)), idempotency: key };
  }

  async #store(client: MediaClient, file: KeepFile, named: Named): Promise<KeptFile> {
    const source: KeepSource = file.job ?? { blob: await file.blob(), name: named.filename };
    const kept = await client.keep(source, { idempotencyKey: named.idempotency });
    // The same rule as a site's handler: a value never names a script or other non-http(s) link,
    // even when an endpoint that is not our proxy answers one.
    const problem = checkAsset(kept, "the results store's answer", false);
    if (problem) throw new TypeError(`${client.endpoint} kept the file but ${problem}.`);
    return kept;
  }

  /** Sets the value; true when it changed. */
  #apply(value: V | null): boolean {
    const json = value ? JSON.stringify(value) : '';
    this.#value = value;
    if (json === this.#json) return false;
    this.#json = json;
    this.#host.requestUpdate();
    return true;
  }

  /** Tells the site which kept files its value no longer names (`mk-assets-released`), once each. */
  #release(reason: AssetsReleasedDetail['reason']): void {
    const now = resultAssets(this.#value);
    const gone = this.#held.filter((a) => !now.some((b) => b.url === a.url));
    this.#held = now;
    if (!gone.length) return;
    const detail: AssetsReleasedDetail = { assets: gone, reason };
    this.#host.dispatchEvent(new AssetsReleasedEvent(detail));
  }

  #fire(type: 'input' | 'change'): void {
    if (type === 'change') this.#working = false;
    this.#host.dispatchEvent(new Event(type, { bubbles: true, composed: true }));
  }
}

interface Named {
  key: string;
  filename: string;
  /** The Idempotency-Key the proxy's store is asked with (an image's retry is stored once). */
  idempotency: string;
}

function asset(kept: KeptFile): ResultAsset {
  return { url: kept.url, type: kept.type, bytes: kept.bytes, id: kept.id };
}

function warn(message: string, once?: string): void {
  if (once) {
    if (warned.has(once)) return;
    warned.add(once);
  }
  console.warn(`[mediakit] ${message}`);
}
