import { css } from 'lit';

/** The results grid's rules (cells, placeholders, badges, the keep line), adopted when results-view.ts loads. */
export const resultStyles = css`
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
