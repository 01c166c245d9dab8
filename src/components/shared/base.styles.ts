/**
 * The look every product element shares: the host's font and text colour, a small set of tokens
 * with defaults (one override restyles all seven elements), light and dark (by
 * `prefers-color-scheme`, or `theme="light|dark"`), 44 px touch targets, visible focus rings,
 * and layouts that reflow from 320 px. This module is what every element takes (the credit badge
 * nothing more); styles.ts adds the product elements' card.
 */
import { css } from 'lit';

/** The dark palette, for the visitor's preference and for `theme="dark"` alike. */
const darkTokens = css`
  --_accent: var(--mk-accent, #7c9cff);
  --_accent-text: var(--mk-accent-text, #0b1020);
  --_surface: var(--mk-surface, #161b22);
  --_surface-2: var(--mk-surface-2, #1f2630);
  --_border: var(--mk-border, #3a4350);
  --_muted: var(--mk-muted, #a3adba);
  --_danger: var(--mk-danger, #ff8a80);
  --_success: var(--mk-success, #6fd08c);
  --_focus: var(--mk-focus-ring, var(--mk-accent, #7c9cff));
  color-scheme: dark;
`;

export const tokens = css`
  :host {
    --_accent: var(--mk-accent, #2f5bea);
    --_accent-text: var(--mk-accent-text, #ffffff);
    --_surface: var(--mk-surface, #ffffff);
    --_surface-2: var(--mk-surface-2, #f5f6f8);
    --_border: var(--mk-border, #d0d5dd);
    --_muted: var(--mk-muted, #5b6472);
    --_danger: var(--mk-danger, #b42318);
    --_success: var(--mk-success, #1a7f37);
    --_radius: var(--mk-radius, 12px);
    --_space: var(--mk-space, 8px);
    --_focus: var(--mk-focus-ring, var(--mk-accent, #2f5bea));
    color-scheme: light;
  }
  @media (prefers-color-scheme: dark) {
    :host(:not([theme='light'])) {
      ${darkTokens}
    }
  }
  :host([theme='dark']) {
    ${darkTokens}
  }
`;

/** What every element's shadow root needs: the host, box sizing, buttons and links, focus rings, the live region. */
export const base = css`
  :host {
    display: block;
    font: inherit;
    color: inherit;
    box-sizing: border-box;
    max-inline-size: 100%;
  }
  /* The dark surfaces need light text even on a host page that never styled its own for dark
     mode (dark text inherited onto --_surface was unreadable). */
  :host([theme='dark']) {
    color: #e6edf3;
  }
  @media (prefers-color-scheme: dark) {
    :host(:not([theme='light'])) {
      color: #e6edf3;
    }
  }
  :host([hidden]) {
    display: none;
  }
  *,
  *::before,
  *::after {
    box-sizing: inherit;
  }
  button,
  .button {
    font: inherit;
    font-weight: 600;
    min-block-size: 44px;
    /* Block padding only shows when a long label (German, a phone) wraps to two lines. */
    padding: calc(var(--_space) * 0.75) calc(var(--_space) * 2);
    border-radius: calc(var(--_radius) - 4px);
    border: 1px solid transparent;
    cursor: pointer;
    display: inline-flex;
    align-items: center;
    justify-content: center;
    gap: var(--_space);
    text-decoration: none;
    line-height: 1.2;
  }
  button.primary,
  .button.primary {
    background: var(--_accent);
    color: var(--_accent-text);
  }
  button.secondary,
  .button.secondary {
    background: var(--_surface);
    color: inherit;
    border-color: var(--_border);
  }
  button.link {
    background: none;
    border: none;
    color: var(--_accent);
    padding: 0 var(--_space);
    text-decoration: underline;
  }
  a[part~='top-up'] {
    color: var(--_accent);
  }
  button:disabled {
    opacity: 0.55;
    cursor: not-allowed;
  }
  button:focus-visible,
  .button:focus-visible,
  a:focus-visible,
  [tabindex]:focus-visible,
  input:focus-visible,
  select:focus-visible,
  textarea:focus-visible {
    outline: 3px solid var(--_focus);
    outline-offset: 2px;
  }
  /* A result heading takes focus when a phase ends (so screen readers start there); it is not a
     control, so it draws no ring. */
  h2[tabindex='-1']:focus,
  h3[tabindex='-1']:focus,
  h4[tabindex='-1']:focus {
    outline: none;
  }
  .sr-only {
    position: absolute;
    inline-size: 1px;
    block-size: 1px;
    padding: 0;
    margin: -1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
    border: 0;
  }
`;
