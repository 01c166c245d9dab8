/**
 * `BgOutcome`: what the last request of <bg-tool> left, beside the original that `BgImage` holds:
 * the result until the image changes (its object URL revoked when another replaces it), why the
 * request failed, and what the last copy said; or a value's kept image, fetched and shown as a
 * result (why that failed, the same way). Also the result as `mk-succeeded` gives it out, and
 * what the live region says as a phase begins.
 */
import type { ReactiveControllerHost } from 'lit';
import type { AnnouncerController } from '../shared/announcer.js';
import type { BgImage } from './image.js';
import type { BgToolResult, BgToolStatus, BgView, ShownResult } from './types.js';
import type { BgToolValue } from './value.js';

export class BgOutcome {
  readonly host: ReactiveControllerHost;
  /** The last result, until the image changes (a value's picture may be shown by its URL alone). */
  result: ShownResult | undefined;
  /** Why the last request failed. */
  error: unknown;
  /** What the last copy said. */
  notice = '';
  /** Stops the fetch of a value's kept image. */
  #restoring: AbortController | undefined;
  /** The value whose kept image is shown or was asked for. */
  #kept: BgToolValue | undefined;

  /** The endpoint whose results path a kept image may be read from with cookies. */
  readonly #endpoint: () => string;

  constructor(host: ReactiveControllerHost, endpoint: () => string) {
    this.host = host;
    this.#endpoint = endpoint;
  }

  /** The result (or the failure) is a value's kept image, not a request's. */
  get restored(): boolean {
    return this.#kept !== undefined;
  }

  /** A value's kept image is being fetched. */
  get restoring(): boolean {
    return this.#restoring !== undefined;
  }

  /** Fetches the kept image again, where that failed. */
  get retry(): (() => void) | undefined {
    const value = this.#kept;
    return value && this.error && !this.restoring ? () => void this.restore(value) : undefined;
  }

  /** Fetches `value`'s kept image (never the API) and shows it as the result; a failure is `error`. */
  async restore(value: BgToolValue): Promise<void> {
    this.#restoring?.abort();
    this.#kept = value;
    const abort = (this.#restoring = new AbortController());
    this.begin();
    try {
      const { fetchKept } = await import('./value.js');
      this.show(await fetchKept(value, this.#endpoint(), abort.signal));
    } catch (err) {
      if (!abort.signal.aborted) this.fail(err);
    } finally {
      if (this.#restoring === abort) this.#restoring = undefined;
      this.host.requestUpdate();
    }
  }

  /** Shows `result` (or nothing) in place of the last one. */
  show(result: ShownResult | undefined): void {
    if (this.result?.blob) URL.revokeObjectURL(this.result.url);
    this.result = result;
    this.host.requestUpdate();
  }

  /** The request failed. */
  fail(error: unknown): void {
    this.error = error;
    this.host.requestUpdate();
  }

  /** Copies the result to the clipboard as PNG; `notice` says (and `announce` reads) whether the browser took it. */
  async copy(t: BgView['t'], announce: AnnouncerController): Promise<boolean> {
    const result = this.result;
    if (!result?.blob) return false;
    const { copyAsPng } = await import('./run.js');
    const copied = await copyAsPng(result);
    this.notice = t.term(copied ? 'bgCopied' : 'bgCopyFailed');
    announce.say(this.notice);
    this.host.requestUpdate();
    return copied;
  }

  /** A request begins: the last failure and notice go; the last result stays until another replaces it. */
  begin(): void {
    this.error = undefined;
    this.notice = '';
    this.host.requestUpdate();
  }

  /** Forgets the result, the failure and the notice, and stops fetching a kept image. */
  clear(): void {
    this.#restoring?.abort();
    this.#restoring = this.#kept = undefined;
    this.show(undefined);
    this.begin();
  }
}

/** The result as a file named after the original: `product.png` gives `product-no-background.png`. */
export function resultFile(result: BgToolResult, source: File | string | undefined): File {
  const base = source instanceof File ? source.name.replace(/\.[^.]+$/, '') : 'image';
  const jpg = result.format === 'jpg';
  return new File([result.blob], `${base}-no-background.${jpg ? 'jpg' : 'png'}`, {
    type: result.blob.type || (jpg ? 'image/jpeg' : 'image/png'),
  });
}

/** The result as `mk-succeeded` gives it: without the object URL, which the element revokes. */
export function withoutUrl<R extends BgToolResult>({ url: _url, ...rest }: R): Omit<R, 'url'> {
  return rest;
}

/** The phase: a request is out; it, the image or a value's kept image failed; a result; a checked image; none. */
export function phaseOf(busy: boolean, image: BgImage, outcome: BgOutcome, hasValue: boolean): BgToolStatus {
  if (busy) return 'sending';
  if ((image.error || outcome.error) && (image.source || hasValue)) return 'failed';
  if (outcome.result) return 'succeeded';
  return image.source && !image.checking ? 'ready' : 'idle';
}

/**
 * What the live region says as `phase` begins: that it works, then the result's facts. A result
 * shown from a value (a saved form opened again) is no milestone of the user's: it says nothing.
 */
export function phaseSay(t: BgView['t'], phase: BgToolStatus, outcome: BgOutcome): string | undefined {
  const r = outcome.restored ? undefined : outcome.result;
  if (phase === 'sending') return t.term('bgWorking');
  if (phase === 'succeeded' && r)
    return t.term('bgDoneSay', { ...r, format: r.format.toUpperCase(), bytes: r.blob ? r.blob.size : r.bytes });
  return undefined;
}
