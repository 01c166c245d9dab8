/**
 * `BgOutcome`: what the last request of <bg-tool> left, beside the original that `BgImage` holds:
 * the result until the image changes (its object URL revoked when another replaces it), why the
 * request failed, and what the last copy said. Also the result as the element gives it out, and
 * what the live region says as a phase begins.
 */
import type { ReactiveControllerHost } from 'lit';
import type { BgToolResult, BgToolStatus, BgView } from './types.js';

export class BgOutcome {
  readonly host: ReactiveControllerHost;
  /** The last result, until the image changes. */
  result: BgToolResult | undefined;
  /** Why the last request failed. */
  error: unknown;
  /** What the last copy said. */
  notice = '';

  constructor(host: ReactiveControllerHost) {
    this.host = host;
  }

  /** Shows `result` (or nothing) in place of the last one. */
  show(result: BgToolResult | undefined): void {
    if (this.result) URL.revokeObjectURL(this.result.url);
    this.result = result;
    this.host.requestUpdate();
  }

  /** The request failed. */
  fail(error: unknown): void {
    this.error = error;
    this.host.requestUpdate();
  }

  /** What a copy said. */
  say(notice: string): void {
    this.notice = notice;
    this.host.requestUpdate();
  }

  /** A request begins: the last failure and notice go; the last result stays until another replaces it. */
  begin(): void {
    this.error = undefined;
    this.notice = '';
    this.host.requestUpdate();
  }

  /** Forgets the result, the failure and the notice. */
  clear(): void {
    this.show(undefined);
    this.begin();
  }
}

/** The result as `result` and `mk-image-ready` give it: without the object URL, which the element revokes. */
export function withoutUrl({ url: _url, ...rest }: BgToolResult): Omit<BgToolResult, 'url'> {
  return rest;
}

/** What the live region says as `phase` begins: that it works, then the result's facts. */
export function phaseSay(t: BgView['t'], phase: BgToolStatus, r: BgToolResult | undefined): string | undefined {
  if (phase === 'working') return t.term('bgWorking');
  if (phase === 'succeeded' && r)
    return t.term('bgDoneSay', { ...r, format: r.format.toUpperCase(), bytes: r.blob.size });
  return undefined;
}
