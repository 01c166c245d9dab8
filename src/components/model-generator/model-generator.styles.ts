import { css } from 'lit';

export const modelGeneratorStyles = css`
  :host {
    --mk-viewer-height: 360px;
  }
  .tabs {
    display: flex;
    gap: 0;
    border-block-end: 1px solid var(--_border);
  }
  [role='tab'] {
    background: none;
    color: inherit;
    border: none;
    border-block-end: 3px solid transparent;
    border-radius: 0;
    margin-block-end: -1px;
    padding: 0 calc(var(--_space) * 2);
    font-weight: 600;
  }
  [role='tab'][aria-selected='true'] {
    border-block-end-color: var(--_accent);
    color: var(--_accent);
  }
  [role='tab'][aria-selected='false'] {
    color: var(--_muted);
  }
  [role='tab']:hover {
    background: var(--_surface-2);
  }
  .panel,
  .stage,
  .result,
  .failed,
  .result-main,
  .result-side,
  .prompt-field {
    display: grid;
    gap: calc(var(--_space) * 1.5);
    min-inline-size: 0;
  }
  .drop .row {
    justify-content: center;
  }
  .photos {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    gap: var(--_space);
  }
  .photo {
    position: relative;
    display: grid;
    grid-template-columns: 72px minmax(0, 1fr) auto;
    gap: calc(var(--_space) * 1.5);
    align-items: start;
    padding: var(--_space);
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) - 4px);
    background: var(--_surface);
  }
  /* Dragging a thumbnail to reorder: the photo stays in its place, marked as the one moving, and
     a line in the accent colour shows where it lands (nothing animates). */
  .photo-thumb {
    cursor: grab;
    touch-action: none;
    user-select: none;
    -webkit-user-select: none;
  }
  .photos.sorting,
  .photos.sorting .photo-thumb {
    cursor: grabbing;
  }
  .photo.dragged {
    border-style: dashed;
    border-color: var(--_accent);
    background: var(--_surface-2);
  }
  .photo.dragged > * {
    opacity: 0.55;
  }
  .photo.drop-before::before,
  .photo.drop-after::after {
    content: '';
    position: absolute;
    inset-inline: -6px;
    block-size: 4px;
    border-radius: 2px;
    background: var(--_accent);
    pointer-events: none;
  }
  .photo.drop-before::before {
    inset-block-start: calc(var(--_space) / -2 - 3px);
  }
  .photo.drop-after::after {
    inset-block-end: calc(var(--_space) / -2 - 3px);
  }
  .photo img {
    inline-size: 72px;
    block-size: 72px;
    object-fit: cover;
    border-radius: 6px;
    background: var(--_surface-2);
    display: block;
  }
  .photo-body {
    display: grid;
    gap: 4px;
    min-inline-size: 0;
    justify-items: start;
  }
  .photo-name {
    font-weight: 600;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
    max-inline-size: 100%;
  }
  .warn {
    font-size: 0.875em;
  }
  .warn::before {
    content: '⚠ ';
    color: #b7791f;
  }
  .view {
    display: flex;
    align-items: center;
    gap: var(--_space);
    font-size: 0.875em;
    color: var(--_muted);
  }
  .view select {
    color: inherit;
  }
  .photo-actions {
    display: flex;
    gap: 4px;
  }
  button.icon {
    inline-size: 44px;
    padding: 0;
    font-size: 1.1em;
  }
  /* The narrow layouts follow the element's own width (container queries), not the viewport's: a
     390 px column on a wide screen kept the desktop layout and ran past the card's edge. */
  .photos,
  .result {
    container-type: inline-size;
  }
  @container (max-width: 520px) {
    .photo {
      grid-template-columns: 56px minmax(0, 1fr);
    }
    .photo img {
      inline-size: 56px;
      block-size: 56px;
    }
    .photo-actions {
      grid-column: 1 / -1;
      justify-content: flex-end;
    }
  }
  .toggle,
  .choice {
    display: flex;
    gap: calc(var(--_space) * 1.5);
    align-items: flex-start;
    cursor: pointer;
  }
  .toggle input,
  .choice input {
    inline-size: 20px;
    block-size: 20px;
    min-block-size: 0;
    margin: 2px 0 0;
    flex: none;
    accent-color: var(--_accent);
  }
  .toggle > span,
  .choice > span {
    display: grid;
    gap: 2px;
  }
  .advice {
    border-inline-start-color: var(--_accent);
  }
  .advice ul {
    font-size: 0.9375em;
  }
  textarea {
    inline-size: 100%;
    padding: var(--_space);
    resize: vertical;
    min-block-size: 88px;
  }
  textarea[aria-invalid='true'] {
    border-color: var(--_danger);
  }
  .prompt-field label {
    font-weight: 600;
  }
  .prompt-meta {
    display: flex;
    justify-content: space-between;
    gap: var(--_space);
    flex-wrap: wrap;
  }
  .counter {
    font-size: 0.875em;
    color: var(--_muted);
  }
  .counter.near {
    color: inherit;
    font-weight: 600;
  }
  .counter.over {
    color: var(--_danger);
    font-weight: 600;
  }
  .counter.over::before {
    content: '⚠ ';
  }
  fieldset {
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) - 4px);
    margin: 0;
    padding: var(--_space) calc(var(--_space) * 2) calc(var(--_space) * 1.5);
    display: grid;
    gap: var(--_space);
    min-inline-size: 0;
  }
  legend {
    font-weight: 600;
    padding: 0 4px;
  }
  .choice {
    padding: 4px 0;
  }
  .history summary {
    cursor: pointer;
    font-weight: 600;
    min-block-size: 44px;
    display: flex;
    align-items: center;
    gap: var(--_space);
    list-style: none;
    border-radius: 4px;
  }
  .history summary::-webkit-details-marker {
    display: none;
  }
  .history summary::before {
    content: '';
    inline-size: 0.5em;
    block-size: 0.5em;
    border-inline-end: 2px solid currentColor;
    border-block-end: 2px solid currentColor;
    transform: rotate(-45deg);
    transition: transform 0.15s ease;
    flex: none;
  }
  :host(:dir(rtl)) .history summary::before {
    transform: rotate(135deg);
  }
  .history[open] summary::before {
    transform: rotate(45deg);
  }
  .history ul {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    gap: var(--_space);
  }
  .card-item {
    display: grid;
    grid-template-columns: 48px minmax(0, 1fr) auto;
    gap: calc(var(--_space) * 1.5);
    align-items: center;
    padding: var(--_space);
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) - 4px);
  }
  .card-item img,
  .card-glyph {
    inline-size: 48px;
    block-size: 48px;
    border-radius: 6px;
    object-fit: cover;
    background: var(--_surface-2);
    display: grid;
    place-items: center;
    font-size: 1.5em;
    color: var(--_muted);
  }
  .card-text {
    display: grid;
    gap: 2px;
    min-inline-size: 0;
  }
  .card-what {
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
`;
