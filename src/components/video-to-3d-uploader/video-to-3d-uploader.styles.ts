import { css } from 'lit';

/**
 * What the first view needs (the card's head, the tips). The views after it bring their own rules
 * (views.styles.ts), adopted when their code loads.
 */
export const uploaderStyles = css`
  :host {
    --mk-viewer-height: 360px;
  }
  .tips summary,
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
  .tips summary::-webkit-details-marker,
  .history summary::-webkit-details-marker {
    display: none;
  }
  .tips summary::before,
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
  :host(:dir(rtl)) .tips summary::before,
  :host(:dir(rtl)) .history summary::before {
    transform: rotate(135deg);
  }
  .tips[open] summary::before,
  .history[open] summary::before {
    transform: rotate(45deg);
  }
  /* The tips and the recent scenes read as one list of two disclosures, without the card's gap. */
  .tips + .history {
    margin-block-start: calc(var(--_space) * -2);
  }
  .tips ul {
    margin: var(--_space) 0 0;
    padding-inline-start: calc(var(--_space) * 2.5);
    display: grid;
    gap: 4px;
    color: var(--_muted);
  }
`;
