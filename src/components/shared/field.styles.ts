/** The field's box and the dialog around the element's card (field mode, field.ts). */
import { css } from 'lit';

export const fieldStyles = css`
  :host {
    container-type: inline-size;
  }
  .field-box {
    display: grid;
    grid-template-columns: auto minmax(0, 1fr) auto;
    align-items: center;
    gap: calc(var(--_space) * 1.5);
    padding: calc(var(--_space) * 1.5);
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    min-inline-size: 0;
  }
  .field-preview {
    inline-size: 72px;
    block-size: 72px;
    border-radius: calc(var(--_radius) / 2);
    background: var(--_surface-2)
      repeating-conic-gradient(color-mix(in srgb, var(--_border) 45%, transparent) 0 25%, transparent 0 50%) 0 0 /
      12px 12px;
    display: grid;
    place-items: center;
    color: var(--_muted);
    overflow: hidden;
  }
  .field-preview img {
    inline-size: 100%;
    block-size: 100%;
    object-fit: contain;
  }
  .field-text {
    display: grid;
    gap: 2px;
    min-inline-size: 0;
  }
  .field-title {
    font-weight: 600;
  }
  .field-detail,
  .field-status {
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
    font-size: 0.875em;
  }
  /* What went wrong and what to do is read whole. */
  .field-problem {
    white-space: normal;
  }
  .field-actions {
    display: flex;
    flex-wrap: wrap;
    gap: var(--_space);
    justify-content: flex-end;
  }
  @container (max-width: 480px) {
    .field-box {
      grid-template-columns: auto minmax(0, 1fr);
    }
    .field-preview {
      inline-size: 56px;
      block-size: 56px;
    }
    .field-actions {
      grid-column: 1 / -1;
      justify-content: stretch;
    }
    .field-actions .button {
      flex: 1 1 auto;
    }
  }
  .field-dialog {
    padding: 0;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_surface);
    color: inherit;
    inline-size: min(760px, calc(100vw - 16px));
    max-inline-size: none;
    max-block-size: calc(100dvh - 16px);
    overflow: auto;
  }
  .field-dialog::backdrop {
    background: rgb(15 20 30 / 0.55);
  }
  .field-dialog > .card {
    border: none;
    padding-block-start: 0;
  }
  .dialog-bar {
    position: sticky;
    inset-block-start: 0;
    z-index: 1;
    display: flex;
    justify-content: flex-end;
    padding: calc(var(--_space) * 1.5);
    background: var(--_surface);
  }
`;
