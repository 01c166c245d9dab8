import { css } from 'lit';

/**
 * What the first view needs (the address field). The picture, the comparison, the options and the
 * result bring their own rules (image-views.styles.ts), adopted when the image views load.
 */
export const bgToolStyles = css`
  :host {
    --mk-compare-height: 360px;
  }
  .url-row {
    display: grid;
    gap: 4px;
  }
  .url-row label {
    font-weight: 600;
    font-size: 0.9375em;
  }
  .url-row input {
    flex: 1 1 220px;
    min-inline-size: 0;
  }
  .invalid {
    color: var(--_danger);
    font-size: 0.875em;
  }
`;
