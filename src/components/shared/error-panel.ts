/**
 * One mapping from every error (a refusal in the browser, an answer of the proxy or the API, a
 * viewer failure) to what happened, what to do and the action that helps, in the element's
 * language. Rendered with role=alert, so a failure is announced once without the polite region.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { LIMITS, type ErrorParams, type ErrorReason } from '../../api/index.js';
import { errorFacts } from './error-facts.js';
import { addEnglish, type LocalizeController } from './localize.js';

export { errorFacts };
export { errorStyles } from './error-panel.styles.js';
import type { SharedStrings } from './strings.js';
import { errorStrings, type ErrorStrings } from './error-strings.js';
import { safeUrl } from '../../internal/safe-url.js';
import { isSavedFileGone } from './saved-file-gone.js';

addEnglish(errorStrings);

/** What the user can do about an error. */
export type ErrorAction = 'choose' | 'retry' | 'top-up' | 'wait' | 'restart' | 'none';

export interface ExplainedError {
  reason: ErrorReason;
  params: ErrorParams;
  title: string;
  hint: string;
  action: ErrorAction;
}

/**
 * The limits a hint states, from the API's limits table: what the check that refused found comes
 * in the error's params; what is allowed comes from here when the error does not say.
 */
const LIMIT_PARAMS: Partial<Record<ErrorReason, ErrorParams>> = {
  too_large: { max: LIMITS.image.maxBytes },
  too_long: { max: LIMITS.video.maxDurationSeconds },
  resolution: { maxShort: LIMITS.video.maxShortSidePixels, maxLong: LIMITS.video.maxLongSidePixels },
  image_count: { min: LIMITS.model.minImages, max: LIMITS.model.maxImages },
  prompt_length: { min: LIMITS.model.minPromptChars, max: LIMITS.model.maxPromptChars },
};

const KEYS: Record<ErrorReason, [keyof ErrorStrings, keyof ErrorStrings, ErrorAction]> = {
  empty: ['errEmptyTitle', 'errEmptyHint', 'choose'],
  too_large: ['errTooLargeTitle', 'errTooLargeHint', 'choose'],
  not_video: ['errNotVideoTitle', 'errNotVideoHint', 'choose'],
  not_image: ['errNotImageTitle', 'errNotImageHint', 'choose'],
  unreadable: ['errUnreadableTitle', 'errUnreadableHint', 'choose'],
  undecodable: ['errUndecodableTitle', 'errUndecodableHint', 'choose'],
  too_long: ['errTooLongTitle', 'errTooLongHint', 'choose'],
  resolution: ['errResolutionTitle', 'errResolutionHint', 'choose'],
  image_count: ['errImageCountTitle', 'errImageCountHint', 'choose'],
  prompt_length: ['errPromptTitle', 'errPromptHint', 'none'],
  invalid: ['errInvalidTitle', 'errInvalidHint', 'retry'],
  insufficient_credits: ['errCreditsTitle', 'errCreditsHint', 'top-up'],
  rate_limited: ['errRateTitle', 'errRateHint', 'wait'],
  network: ['errNetworkTitle', 'errNetworkHint', 'retry'],
  unauthorized: ['errUnauthorizedTitle', 'errUnauthorizedHint', 'retry'],
  forbidden: ['errForbiddenTitle', 'errForbiddenHint', 'none'],
  not_found: ['errNotFoundTitle', 'errNotFoundHint', 'restart'],
  expired: ['errExpiredTitle', 'errExpiredHint', 'restart'],
  upload_timeout: ['errTimeoutTitle', 'errTimeoutHint', 'retry'],
  conflict: ['errConflictTitle', 'errConflictHint', 'restart'],
  provider: ['errProviderTitle', 'errProviderHint', 'retry'],
  unavailable: ['errUnavailableTitle', 'errUnavailableHint', 'retry'],
  unknown: ['errUnknownTitle', 'errUnknownHint', 'retry'],
};

/** A saved value's kept file that is gone: the same words in every element (shared/saved-file.ts). */
const SAVED_GONE: [keyof ErrorStrings, keyof ErrorStrings, ErrorAction] = [
  'errSavedGoneTitle',
  'errSavedGoneHint',
  'restart',
];

export function explainError(t: LocalizeController<SharedStrings>, error: unknown): ExplainedError {
  const facts = errorFacts(error);
  const reason = facts.reason;
  const params = { ...LIMIT_PARAMS[reason], ...facts.params };
  const [title, hint, action] = isSavedFileGone(error) ? SAVED_GONE : (KEYS[reason] ?? KEYS.unknown);
  const term = (k: keyof ErrorStrings) => (t.term as (key: string, p?: unknown) => string)(k, params);
  return { reason, params, title: term(title), hint: term(hint), action };
}

export interface ErrorPanelOptions {
  /** Extra text below the hint (for example the service's own message about the filming). */
  detail?: string | undefined;
  onChoose?: () => void;
  onRetry?: () => void;
  onRestart?: () => void;
  /** Where the 402 action leads: a slot named `top-up` wins, else this link. */
  topUpHref?: string | undefined;
}

/** The error panel (`part="error"`). */
export function renderErrorPanel(
  t: LocalizeController<SharedStrings>,
  error: unknown,
  o: ErrorPanelOptions = {},
): TemplateResult {
  const e = explainError(t, error);
  const button = (label: string, fn: (() => void) | undefined, part = 'button') =>
    fn ? html`<button type="button" part=${part} class="secondary" @click=${fn}>${label}</button>` : nothing;
  return html`<div part="error" class="error" role="alert" data-reason=${e.reason}>
    <svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><circle cx="12" cy="12" r="10" fill="none" stroke="currentColor" stroke-width="2"/><path d="M12 7v6M12 16.5v.5" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>
    <div class="error-text">
      <strong class="error-title">${e.title}</strong>
      <span class="error-hint">${e.hint}</span>
      ${o.detail ? html`<span class="error-detail">${o.detail}</span>` : nothing}
    </div>
    <div class="actions">
      ${e.action === 'choose' ? button(t.term('chooseAnother'), o.onChoose) : nothing}
      ${e.action === 'retry' || e.action === 'wait' ? button(t.term('tryAgain'), o.onRetry) : nothing}
      ${e.action === 'restart' ? button(t.term('startOver'), o.onRestart ?? o.onChoose) : nothing}
      ${
        e.action === 'top-up'
          ? html`<slot name="top-up">${safeUrl(o.topUpHref) ? html`<a part="top-up" class="button secondary" href=${o.topUpHref}>${t.term('topUp')}</a>` : nothing}</slot>`
          : nothing
      }
    </div>
  </div>`;
}
