/**
 * The look every product element shares: the host's font and text colour, a small set of tokens
 * with defaults (one override restyles all seven elements), light and dark (by
 * `prefers-color-scheme`, or `theme="light|dark"`), 44 px touch targets, visible focus rings,
 * and layouts that reflow from 320 px.
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

export const base = css`
  .head {
    display: flex;
    flex-wrap: wrap;
    justify-content: space-between;
    align-items: baseline;
    gap: var(--_space) calc(var(--_space) * 2);
  }
  .nums {
    font-variant-numeric: tabular-nums;
  }
  .advice {
    border-inline-start: 4px solid #d4a72c;
    padding: var(--_space) calc(var(--_space) * 1.5);
    background: var(--_surface-2);
    border-radius: 4px;
    display: grid;
    gap: 4px;
  }
  .advice ul {
    margin: 0;
    padding-inline-start: calc(var(--_space) * 2.5);
  }
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
  .card {
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    padding: calc(var(--_space) * 3);
    display: grid;
    gap: calc(var(--_space) * 2);
    min-inline-size: 0;
  }
  @media (max-width: 480px) {
    .card {
      padding: calc(var(--_space) * 2);
    }
  }
  h2,
  h3 {
    margin: 0;
    font-size: 1.125em;
    line-height: 1.3;
    font-weight: 600;
  }
  h3 {
    font-size: 1em;
  }
  p {
    margin: 0;
  }
  .muted {
    color: var(--_muted);
    font-size: 0.875em;
  }
  .row {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: var(--_space);
  }
  .actions {
    display: flex;
    flex-wrap: wrap;
    gap: var(--_space);
    align-items: center;
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
  input,
  select,
  textarea {
    font: inherit;
    color: inherit;
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) - 6px);
    min-block-size: 44px;
    padding: 0 var(--_space);
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
  /* The limits line: one or two balanced lines across the drop zone, wrapping between items. */
  .limits-wrap {
    justify-self: stretch;
    display: grid;
    gap: calc(var(--_space) / 2);
  }
  .items-line {
    text-wrap: balance;
  }
  .items-line .keep {
    white-space: nowrap;
  }
  .items-line [data-line-start] > .sep {
    display: none;
  }
  .limits-note {
    text-wrap: pretty;
  }
  .drop {
    border: 2px dashed var(--_border);
    border-radius: var(--_radius);
    background: var(--_surface-2);
    padding: calc(var(--_space) * 4) calc(var(--_space) * 2);
    display: grid;
    justify-items: center;
    text-align: center;
    gap: var(--_space);
  }
  .drop.dragging {
    border-color: var(--_accent);
    background: color-mix(in srgb, var(--_accent) 10%, var(--_surface));
  }
  .drop svg {
    inline-size: 40px;
    block-size: 40px;
    color: var(--_muted);
  }
  .meter {
    block-size: 8px;
    border-radius: 4px;
    background: var(--_surface-2);
    border: 1px solid var(--_border);
    overflow: hidden;
  }
  .meter > div {
    block-size: 100%;
    background: var(--_accent);
    transition: inline-size 0.3s ease;
  }
  .meter.indeterminate > div {
    inline-size: 30%;
    animation: slide 1.4s ease-in-out infinite;
  }
  @keyframes slide {
    from {
      transform: translateX(-100%);
    }
    to {
      transform: translateX(340%);
    }
  }
  @media (prefers-reduced-motion: reduce) {
    .meter > div {
      transition: none;
    }
    .meter.indeterminate > div {
      animation: none;
      inline-size: 100%;
      opacity: 0.4;
    }
  }
  .cost {
    font-size: 0.875em;
    color: var(--_muted);
  }
  .notice {
    padding: var(--_space) calc(var(--_space) * 1.5);
    border-radius: calc(var(--_radius) - 4px);
    background: var(--_surface-2);
    font-size: 0.9375em;
  }
  dl.facts {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(120px, 1fr));
    gap: var(--_space) calc(var(--_space) * 2);
    margin: 0;
  }
  dl.facts div {
    display: grid;
    gap: 2px;
  }
  dl.facts dt {
    font-size: 0.8125em;
    color: var(--_muted);
  }
  dl.facts dd {
    margin: 0;
    font-weight: 600;
    font-variant-numeric: tabular-nums;
  }
`;

/** The frame of a result viewer inside an element, and the box that stands in for it while its code loads. */
export const viewerFrame = css`
  glb-viewer,
  splat-viewer,
  .viewer-wait {
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) - 4px);
    block-size: var(--mk-viewer-height);
    background: var(--_surface-2);
  }
  .viewer-wait {
    display: grid;
    align-content: center;
    justify-items: center;
    gap: var(--_space);
    padding: calc(var(--_space) * 3);
  }
  .viewer-wait .meter {
    inline-size: min(320px, 100%);
  }
`;

export const elementStyles = [tokens, base];
