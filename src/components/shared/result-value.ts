/**
 * `ResultValueController`: an element's result as a value a site can save, re-open and keep
 * (README "Saving results"). It holds the element's versioned value object, its JSON string (the
 * `value` property and the form value), fires native `input` while the value changes and `change`
 * once per committed result, and keeps what a result is made of where it lasts: in the site's
 * `assetHandler` (a CMS media library), else in the proxy's result store when the session says
 * there is one (`keep` claim), else nowhere, with one console warning that the result will not
 * outlive its links. A value set from outside reads back at once and is checked before it is shown
 * by the element with no API call (a refused one: a console warning names what is wrong, and the
 * value goes back to what it was). The checks load with the first value set from outside: a page
 * that never sets one never loads them, and `updateComplete` waits for them.
 */
import { AssetsReleasedEvent, type AssetsReleasedDetail } from '../../events/assets-released.js';
import { html, nothing, type ReactiveController, type ReactiveControllerHost } from 'lit';
import type { MediaClient } from '../../client/media-client.js';
import type { LocalizeController } from './localize.js';
import { loadOnce } from '../../internal/small.js';
import type { AssetHandler, KeepFile, ResultAsset, ResultValueBase, ValueCheck } from './result-checks.js';
import type { sharedStrings } from './strings.js';
import { resultAssets } from './result-assets.js';

export type { AssetsReleasedDetail };
export type { AssetHandler, AssetInfo, KeepFile, ResultAsset, ResultValueBase, ValueCheck } from './result-checks.js';

// The common checks of a value from outside load with the first one set (with the element's own).
const loadChecks = loadOnce(() => import('./result-checks.js'));

// What keeps a result's files loads with the first result that has files to keep, never before.
const loadKeeper = loadOnce(() => import('./result-keep.js'));

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
  /** Loads the check of the element's own fields of a value from outside (with the first value set). */
  check(): Promise<ValueCheck>;
  /** Shows a value set from outside, with no API call; null: shows nothing (the value was cleared). */
  show(value: V | null): void;
}

export class ResultValueController<V extends ResultValueBase> implements ReactiveController {
  readonly #host: Host;
  readonly #o: ResultValueOptions<V>;
  #value: V | null = null;
  #json = '';
  /** The last value handed in from outside, and whether the element has worked on since (see `set`). */
  #given: string | undefined;
  /** Counts values handed in, commits and clears: a check that finishes after another of them is dropped. */
  #sets = 0;
  /** The value handed in last and its check, while it runs. */
  #checking: Promise<void> | undefined;
  #pending = '';
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
    // A value handed in reads back at once, as an input's does; a refused one goes back to what was.
    return this.#checking ? this.#pending : this.#json;
  }

  /** Where keeping stands (for the element's status line and tests). */
  get keeping(): Keeping {
    return this.#keeping;
  }

  /**
   * A value from outside (the `value` property or attribute, a restored form): checked, then shown
   * with no API call. A refused one logs why, and the value goes back to what it was. No event
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
    const set = this.#supersede();
    if (json === this.#json) return;
    if (json === '' || json === null || json === undefined) {
      this.#apply(null);
      this.#o.show(null);
      return;
    }
    this.#pending = json;
    const checking = this.#check(set, json).finally(() => {
      if (this.#checking !== checking) return;
      this.#checking = undefined;
      this.#host.requestUpdate();
    });
    this.#checking = checking;
  }

  /** A value handed in, a commit or a clear: a check still running is dropped. */
  #supersede(): number {
    this.#checking = undefined;
    return ++this.#sets;
  }

  /** While a value handed in is checked: resolves once it is (shown, or refused). */
  get checking(): Promise<void> | undefined {
    return this.#checking;
  }

  async #check(set: number, json: string): Promise<void> {
    const refuse = (why: string) => warn(`<${this.#host.localName}> value refused: ${why}. The element is unchanged.`);
    let loaded: [typeof import('./result-checks.js'), ValueCheck];
    try {
      loaded = await Promise.all([loadChecks(), this.#o.check()]);
    } catch (err) {
      // The checks' code could not load (offline, a deploy replaced it): nothing unchecked is shown.
      if (set === this.#sets) refuse(`its checks could not load (${String(err)})`);
      return;
    }
    if (set !== this.#sets) return;
    const [{ checkValue }, check] = loaded;
    const checked = checkValue(json, this.#o.kind, check);
    if ('problem' in checked) return refuse(checked.problem);
    const parsed = checked.value;
    this.#run++;
    this.#keeping = 'idle';
    this.#apply(parsed as V);
    this.#held = resultAssets(parsed as V);
    this.#o.show(parsed as V);
  }

  /** The element's own value while it works (a job started, a choice made): fires `input`. */
  update(value: V | null): void {
    this.#supersede();
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
    this.#supersede();
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
    const host = this.#host;
    // `keep="none"`: nothing keeps the result, not even the site's handler.
    if (!files.length || host.keep === 'none') return this.#kept(null);
    // With a handler the status line says "saving" at once; with the proxy's store once the session says it keeps.
    const started = () => ((this.#keeping = 'keeping'), host.requestUpdate());
    if (host.assetHandler) started();
    try {
      const { keepFiles } = await loadKeeper();
      if (run !== this.#run) return;
      const ctx = { host, kind: this.#o.kind, client: this.#o.client(), keys: this.#keys, started };
      const assets = await keepFiles({ ...ctx, current: () => run === this.#run }, files);
      if (run !== this.#run) return;
      this.#kept(assets ? place(value, assets) : null);
    } catch (err) {
      if (run !== this.#run) return;
      console.warn(`[mediakit] <${host.localName}> could not keep the result`, err);
      this.#keeping = 'failed';
      host.requestUpdate();
    }
  }

  /** Keeping ended: `value` names the kept files (null: nothing kept them, the value stays), and `change` fires. */
  #kept(value: V | null): void {
    this.#keeping = value ? 'kept' : 'idle';
    if (value) this.#apply(value);
    this.#fire('change');
    this.#release('replaced');
  }

  /** One key per file of this commit, so a retry keeps it once. */
  readonly #keys = new WeakMap<KeepFile, string>();

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

function warn(message: string): void {
  console.warn(`[mediakit] ${message}`);
}
