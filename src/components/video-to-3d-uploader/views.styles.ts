import { css } from 'lit';

/** The rules of <video-to-3d-uploader>'s views after `idle` (views.ts), adopted when they load. */
export const viewStyles = css`
  .ready dl.facts {
    grid-template-columns: repeat(2, minmax(0, 1fr));
  }
  .preview {
    display: grid;
    grid-template-columns: minmax(0, 240px) minmax(0, 1fr);
    gap: calc(var(--_space) * 2);
    align-items: start;
  }
  /* By the element's own width, not the viewport's: in a 390 px column on a wide screen the
     thumbnail beside the facts squeezed them past the card's edge. */
  .ready {
    container-type: inline-size;
  }
  @container (max-width: 520px) {
    .preview {
      grid-template-columns: minmax(0, 1fr);
    }
  }
  img[part~='thumbnail'],
  .thumb-empty {
    inline-size: 100%;
    aspect-ratio: 16 / 9;
    object-fit: cover;
    border-radius: calc(var(--_radius) - 4px);
    background: var(--_surface-2);
    border: 1px solid var(--_border);
    display: block;
  }
  .file-name {
    font-weight: 600;
    overflow-wrap: anywhere;
    margin-block-end: var(--_space);
  }
  .ready,
  .stage,
  .result,
  .failed,
  .expired,
  .checking {
    display: grid;
    gap: calc(var(--_space) * 1.5);
  }
  .refund {
    color: var(--_success);
    font-weight: 600;
  }
  .keep {
    color: var(--_muted);
    font-size: 0.875em;
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: var(--_space);
  }
  .keep.failed {
    color: var(--_danger);
  }
  .history ul {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
  }
  .history li {
    display: grid;
    grid-template-columns: minmax(0, 1fr) auto;
    grid-template-areas: 'name open' 'meta open';
    align-items: center;
    column-gap: var(--_space);
    padding: var(--_space) 0;
    border-block-start: 1px solid var(--_border);
  }
  .h-name {
    grid-area: name;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .history li .muted {
    grid-area: meta;
  }
  .history li button {
    grid-area: open;
  }
  .fit ul {
    margin: 0;
    padding-inline-start: 1.25em;
  }
  .fit h3 {
    margin: 0 0 var(--_space);
    font-size: 1em;
  }
  .trim {
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) - 4px);
    padding: var(--_space) calc(var(--_space) * 1.5) calc(var(--_space) * 1.5);
    margin: var(--_space) 0 0;
    display: grid;
    gap: var(--_space);
    min-inline-size: 0;
  }
  .strip-wrap {
    position: relative;
    block-size: 54px;
    border-radius: 4px;
    overflow: hidden;
    background: var(--_surface-2);
  }
  .filmstrip {
    display: flex;
    block-size: 100%;
  }
  .filmstrip img {
    flex: 1 1 0;
    min-inline-size: 0;
    block-size: 100%;
    object-fit: cover;
  }
  /* The part sent shows clear in its frame; the rest of the strip is veiled (the wide shadow,
     clipped by the strip), in the card's own colour, so light and dark alike. */
  .window {
    position: absolute;
    inset-block: 0;
    border: 3px solid var(--_accent);
    border-radius: 4px;
    box-sizing: border-box;
    box-shadow: 0 0 0 100vmax color-mix(in srgb, var(--_surface) 65%, transparent);
  }
  .trim-inputs {
    display: grid;
    grid-template-columns: repeat(2, minmax(0, 1fr));
    gap: calc(var(--_space) * 2);
  }
  @container (max-width: 520px) {
    .trim-inputs {
      grid-template-columns: minmax(0, 1fr);
    }
  }
  .trim-inputs label {
    display: grid;
    grid-template-columns: minmax(0, 1fr) auto;
    align-items: center;
    gap: 0 var(--_space);
  }
  .trim-inputs input {
    grid-column: 1;
    inline-size: 100%;
    accent-color: var(--_accent);
    min-block-size: 24px;
  }
  .trim-inputs output {
    grid-column: 2;
  }
  /* A phase's file name moves to the next line whole (it breaks inside only when longer than a
     line), and its figures wrap in balanced lines, never one word alone. */
  .stage > p:first-child .muted {
    display: inline-block;
    overflow-wrap: anywhere;
  }
  .stage .nums {
    text-wrap: balance;
  }
  /* A long button label ("Convert and upload (20 credits)" on a phone) wraps in balanced lines. */
  .actions button {
    text-wrap: balance;
  }
`;
