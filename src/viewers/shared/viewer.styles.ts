import { css } from 'lit';

export const viewerStyles = css`
  :host {
    display: block;
    position: relative;
    inline-size: 100%;
    block-size: var(--mk-viewer-height, 360px);
    contain: content;
    color: var(--mk-viewer-color, #1f2328);
    background: var(--mk-viewer-background, transparent);
    border-radius: var(--mk-viewer-radius, 8px);
    overflow: hidden;
  }
  @media (prefers-color-scheme: dark) {
    :host {
      color: var(--mk-viewer-color, #e6edf3);
    }
  }
  .base {
    position: relative;
    inline-size: 100%;
    block-size: 100%;
  }
  canvas {
    display: block;
    inline-size: 100%;
    block-size: 100%;
    touch-action: none;
    outline: none;
  }
  canvas:focus-visible {
    box-shadow: inset 0 0 0 3px var(--mk-focus-ring, #0969da);
  }
  ::slotted([slot='poster']) {
    position: absolute;
    inset: 0;
    inline-size: 100%;
    block-size: 100%;
    object-fit: contain;
    pointer-events: none;
  }
  .progress {
    position: absolute;
    inset-inline: 0;
    inset-block-end: 0;
    block-size: 4px;
    background: rgb(127 127 127 / 0.25);
  }
  .bar {
    block-size: 100%;
    background: var(--mk-viewer-accent, #0969da);
    transition: width 0.2s;
  }
  .error {
    position: absolute;
    inset: auto 0.75rem 0.75rem;
    padding: 0.5rem 0.75rem;
    border-radius: 6px;
    background: var(--mk-viewer-error-background, #ffebe9);
    color: var(--mk-viewer-error-color, #82071e);
    font: 0.875rem/1.4 system-ui, sans-serif;
  }
  .sr-only {
    position: absolute;
    inline-size: 1px;
    block-size: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
  [hidden] {
    display: none !important;
  }
`;
