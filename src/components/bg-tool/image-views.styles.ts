import { css } from 'lit';

/** The image views' rules: the picture, the before/after comparison, the options, the result, the keep line. */
export const viewStyles = css`
  .picture,
  .compare {
    position: relative;
    justify-self: center;
    inline-size: 100%;
    block-size: var(--mk-compare-height);
    max-block-size: 70vh;
    border-radius: calc(var(--_radius) - 4px);
    border: 1px solid var(--_border);
    background: var(--_surface-2);
    overflow: hidden;
  }
  .picture img,
  .compare img {
    position: absolute;
    inset: 0;
    inline-size: 100%;
    block-size: 100%;
    object-fit: contain;
    user-select: none;
  }
  .no-preview {
    position: absolute;
    inset: 0;
    display: grid;
    align-content: center;
    justify-items: center;
    gap: var(--_space);
    padding: calc(var(--_space) * 2);
    text-align: center;
  }
  .no-preview svg {
    inline-size: 40px;
    block-size: 40px;
    color: var(--_muted);
  }
  .before-only {
    display: grid;
    gap: var(--_space);
  }
  .file-name {
    overflow-wrap: anywhere;
  }
  .compare {
    touch-action: pan-y;
    cursor: ew-resize;
  }
  .after {
    position: absolute;
    inset: 0;
  }
  .checkerboard {
    background: repeating-conic-gradient(#c8ccd2 0 25%, #ffffff 0 50%) 0 0 / 20px 20px;
  }
  .handle {
    position: absolute;
    inset-block: 0;
    inline-size: 44px;
    margin-inline-start: -22px;
    display: grid;
    place-items: center;
    cursor: ew-resize;
  }
  .handle::before {
    content: '';
    position: absolute;
    inset-block: 0;
    inset-inline-start: 50%;
    inline-size: 2px;
    margin-inline-start: -1px;
    background: #fff;
    box-shadow: 0 0 0 1px rgb(0 0 0 / 0.35);
  }
  .knob {
    position: relative;
    inline-size: 40px;
    block-size: 40px;
    border-radius: 50%;
    background: #fff;
    color: #1f2328;
    box-shadow: 0 1px 4px rgb(0 0 0 / 0.4);
    display: grid;
    place-items: center;
  }
  .knob svg {
    inline-size: 22px;
    block-size: 22px;
  }
  .handle:focus-visible {
    outline: none;
  }
  .handle:focus-visible .knob {
    outline: 3px solid var(--_focus);
    outline-offset: 2px;
  }
  .tag {
    position: absolute;
    inset-block-start: var(--_space);
    padding: 2px 8px;
    border-radius: 999px;
    background: rgb(0 0 0 / 0.6);
    color: #fff;
    font-size: 0.8125em;
    font-weight: 600;
    pointer-events: none;
  }
  .tag-before {
    left: var(--_space);
  }
  .tag-after {
    right: var(--_space);
  }
  .result {
    display: grid;
    gap: calc(var(--_space) * 1.5);
  }
  fieldset.options {
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) - 4px);
    margin: 0;
    padding: var(--_space) calc(var(--_space) * 1.5) calc(var(--_space) * 1.5);
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(240px, 1fr));
    gap: calc(var(--_space) * 1.5) calc(var(--_space) * 2);
    min-inline-size: 0;
  }
  legend {
    font-weight: 600;
    padding: 0 4px;
  }
  .field {
    display: grid;
    gap: 4px;
    align-content: start;
    font-size: 0.9375em;
  }
  .field > span {
    font-weight: 600;
  }
  label.field {
    font-weight: 600;
  }
  select {
    font-weight: 400;
    inline-size: 100%;
  }
  .check {
    display: inline-flex;
    align-items: center;
    gap: var(--_space);
    min-block-size: 44px;
    cursor: pointer;
  }
  .check input[type='radio'],
  .check input[type='checkbox'] {
    inline-size: 20px;
    block-size: 20px;
    min-block-size: auto;
    margin: 0;
    accent-color: var(--_accent);
  }
  .check input[type='color'] {
    inline-size: 56px;
    block-size: 44px;
    padding: 2px;
    cursor: pointer;
  }
  /* Whether the result is kept: a quiet line under the actions; a failure (with its retry) stands out. */
  .keep {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: var(--_space);
    color: var(--_muted);
    font-size: 0.875em;
  }
  .keep.failed {
    color: var(--_danger);
  }
  .actions .meter {
    flex: 1 1 120px;
  }
`;
