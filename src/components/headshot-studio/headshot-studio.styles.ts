import { css } from 'lit';

export const headshotStyles = css`
  .actions.center {
    justify-content: center;
  }
  .ready,
  .results-wrap,
  .stage,
  .camera {
    display: grid;
    gap: calc(var(--_space) * 2);
    min-inline-size: 0;
  }
  .photo-row {
    display: grid;
    grid-template-columns: 96px minmax(0, 1fr);
    gap: calc(var(--_space) * 2);
    align-items: center;
  }
  img[part~='photo'] {
    inline-size: 96px;
    block-size: 96px;
    object-fit: cover;
    border-radius: calc(var(--_radius) - 4px);
    border: 1px solid var(--_border);
    background: var(--_surface-2);
  }
  .photo-facts {
    display: grid;
    gap: 2px;
    justify-items: start;
    min-inline-size: 0;
  }
  .photo-facts button.link {
    padding-inline: 0;
    text-align: start;
  }
  .file-name {
    font-weight: 600;
    overflow-wrap: anywhere;
  }
  fieldset {
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) - 4px);
    margin: 0;
    padding: var(--_space) calc(var(--_space) * 1.5) calc(var(--_space) * 1.5);
    display: grid;
    gap: var(--_space);
    min-inline-size: 0;
  }
  fieldset.styles {
    grid-template-columns: repeat(auto-fit, minmax(220px, 1fr));
  }
  fieldset.slots {
    grid-template-columns: repeat(auto-fit, minmax(200px, 1fr));
  }
  legend {
    font-weight: 600;
    padding: 0 4px;
  }
  .note {
    grid-column: 1 / -1;
  }
  .choice {
    display: grid;
    grid-template-columns: auto 1fr;
    gap: var(--_space);
    align-items: start;
    padding: var(--_space);
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) - 6px);
    cursor: pointer;
    min-block-size: 44px;
  }
  .choice.compact {
    align-items: center;
  }
  .choice:has(input:checked) {
    border-color: var(--_accent);
    background: color-mix(in srgb, var(--_accent) 8%, var(--_surface));
  }
  .choice input {
    min-block-size: auto;
    inline-size: 20px;
    block-size: 20px;
    margin: 2px 0 0;
    accent-color: var(--_accent);
  }
  .choice > span {
    display: grid;
    gap: 2px;
  }
  .camera .frame {
    position: relative;
    inline-size: min(100%, 420px);
    aspect-ratio: 3 / 4;
    justify-self: center;
    border-radius: var(--_radius);
    overflow: hidden;
    background: #111;
  }
  .camera video {
    position: absolute;
    inset: 0;
    inline-size: 100%;
    block-size: 100%;
    object-fit: cover;
    /* A selfie preview reads like a mirror; the photo taken is not mirrored. */
    transform: scaleX(-1);
  }
  .guide {
    position: absolute;
    inset: 0;
    inline-size: 100%;
    block-size: 100%;
    fill: none;
    stroke: #fff;
    stroke-width: 2.5;
    stroke-dasharray: 8 6;
  }
  .guide .shade {
    fill: rgb(0 0 0 / 0.35);
    stroke: none;
  }
  .camera-wait {
    position: absolute;
    inset: auto 0 0;
    padding: var(--_space);
    color: #fff;
    text-align: center;
  }
  .camera > .muted {
    text-align: center;
  }
  .camera .actions {
    justify-content: center;
  }
  .results-wrap {
    container-type: inline-size;
  }
  .grid {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    grid-template-columns: repeat(2, minmax(0, 1fr));
    gap: calc(var(--_space) * 2);
  }
  @container (max-width: 300px) {
    .grid {
      grid-template-columns: minmax(0, 1fr);
    }
  }
  @container (max-width: 480px) {
    .grid {
      gap: calc(var(--_space) * 1.5) var(--_space);
    }
    .slot .actions button,
    .slot .actions .button {
      padding-inline: 4px;
      font-size: 0.875em;
    }
    .failed-box .muted {
      display: none;
    }
  }
  /* Each cell's picture, name and buttons sit on the rows of the list (subgrid), so a name that
     wraps to more lines than its neighbour's does not push that cell's buttons out of line. */
  .slot {
    display: grid;
    grid-row: span 3;
    grid-template-rows: subgrid;
    row-gap: var(--_space);
    align-content: start;
    min-inline-size: 0;
  }
  .shot {
    position: relative;
    aspect-ratio: 1;
    border-radius: calc(var(--_radius) - 4px);
    overflow: hidden;
    border: 1px solid var(--_border);
    background: var(--_surface-2);
  }
  .slot.chosen .shot {
    outline: 3px solid var(--_accent);
    outline-offset: 2px;
  }
  .slot.failed .shot {
    aspect-ratio: auto;
    min-block-size: 160px;
  }
  .shot img {
    display: block;
    inline-size: 100%;
    block-size: 100%;
    object-fit: cover;
  }
  .placeholder {
    block-size: 100%;
    display: grid;
    align-content: center;
    justify-items: center;
    gap: var(--_space);
    padding: calc(var(--_space) * 1.5);
    text-align: center;
  }
  .placeholder .meter {
    inline-size: 70%;
  }
  .failed-box .icon {
    inline-size: 28px;
    block-size: 28px;
    color: var(--_danger);
  }
  .failed-box .muted {
    font-size: 0.8125em;
    overflow-wrap: anywhere;
  }
  .badge {
    position: absolute;
    inset-block-start: var(--_space);
    inset-inline-start: var(--_space);
    background: var(--_accent);
    color: var(--_accent-text);
    font-size: 0.8125em;
    font-weight: 600;
    padding: 2px 8px;
    border-radius: 999px;
  }
  /* Where keeping the headshots stands: small and quiet, unless it failed. */
  .keep {
    margin: 0;
    font-size: 0.875em;
    color: var(--_muted);
  }
  .keep.failed {
    color: var(--_danger);
  }
  h4 {
    margin: 0;
    font-size: 0.9375em;
    font-weight: 600;
  }
  /* One layout for every cell (two equal buttons side by side, stacked when the cell is narrow), so the rows line up. */
  .slot .actions {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(140px, 1fr));
    gap: 4px var(--_space);
  }
  .slot .actions button,
  .slot .actions .button {
    padding-inline: var(--_space);
    font-size: 0.9375em;
  }
`;
