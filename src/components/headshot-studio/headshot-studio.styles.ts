import { css } from 'lit';

export const headshotStyles = css`
  .actions.center {
    justify-content: center;
  }
  .ready,
  .results-wrap,
  .stage {
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
`;
