import { css } from 'lit';

export const viewerStyles = css`
  :host {
    display: block;
    position: relative;
    box-sizing: border-box;
    inline-size: 100%;
    block-size: var(--mk-viewer-height, 360px);
    contain: content;
    font: inherit;
    color: var(--mk-viewer-color, inherit);
    /* A visible frame from the kit's shared tokens, so an empty or loading viewer is never a white gap. */
    background: var(--mk-viewer-background, var(--mk-surface, #f6f8fa));
    border: 1px solid var(--mk-border, #d0d7de);
    border-radius: var(--mk-viewer-radius, var(--mk-radius, 8px));
    overflow: hidden;
  }
  @media (prefers-color-scheme: dark) {
    :host {
      background: var(--mk-viewer-background, var(--mk-surface, #161b22));
      border-color: var(--mk-border, #30363d);
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
    box-shadow: inset 0 0 0 3px var(--mk-focus-ring, var(--mk-viewer-accent, var(--mk-accent, #0969da)));
  }
  ::slotted([slot='poster']) {
    position: absolute;
    inset: 0;
    inline-size: 100%;
    block-size: 100%;
    object-fit: contain;
    pointer-events: none;
  }
  .hint {
    position: absolute;
    inset: 0;
    display: flex;
    flex-direction: column;
    align-items: center;
    justify-content: center;
    gap: var(--mk-space, 8px);
    padding: calc(var(--mk-space, 8px) * 2);
    text-align: center;
    font-size: 0.875em;
    line-height: 1.4;
    opacity: 0.7;
    pointer-events: none;
  }
  .hint svg {
    opacity: 0.6;
  }
  :host(:state(loading)) .hint svg {
    animation: mk-viewer-pulse 1.6s ease-in-out infinite;
  }
  @keyframes mk-viewer-pulse {
    50% {
      opacity: 0.2;
    }
  }
  @media (prefers-reduced-motion: reduce) {
    :host(:state(loading)) .hint svg {
      animation: none;
    }
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
    background: var(--mk-viewer-accent, var(--mk-accent, #0969da));
    transition: width 0.2s;
  }
  .error {
    position: absolute;
    inset: auto 0.75rem 0.75rem;
    padding: 0.5rem 0.75rem;
    border-radius: 6px;
    background: var(--mk-viewer-error-background, #ffebe9);
    color: var(--mk-viewer-error-color, #82071e);
    font-size: 0.875em;
    line-height: 1.4;
  }
  .notice {
    position: absolute;
    inset: auto var(--mk-space, 8px) var(--mk-space, 8px);
    padding: calc(var(--mk-space, 8px) / 2) var(--mk-space, 8px);
    border-radius: calc(var(--mk-radius, 8px) - 2px);
    background: var(--mk-surface, #f6f8fa);
    border: 1px solid var(--mk-border, #d0d7de);
    font-size: 0.8125em;
    line-height: 1.4;
    pointer-events: none;
  }
  @media (prefers-color-scheme: dark) {
    .notice {
      background: var(--mk-surface, #161b22);
      border-color: var(--mk-border, #30363d);
    }
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
