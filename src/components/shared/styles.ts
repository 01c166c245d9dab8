/**
 * The product elements' card on top of the look every element shares (base.styles.ts): headings,
 * rows, fields, the drop zone, progress, notices and facts; the result viewer's frame.
 */
import { css } from 'lit';
import { base, tokens } from './base.styles.js';

/** The product elements' card: headings, rows, fields, the drop zone and its limits line, progress, notices, facts. */
export const cardStyles = css`
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

/** The product elements' styles (the badge takes `tokens` and `base` only). */
export const elementStyles = [tokens, base, cardStyles];
