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
`;
