import { css } from 'lit';

/**
 * The error panel's rules (`part="error"`), adopted when the panel's code loads: with the error
 * panel itself, and with the job views that show a failed job in the same panel.
 */
export const errorStyles = css`
  .error {
    display: grid;
    grid-template-columns: auto 1fr;
    gap: var(--_space) calc(var(--_space) * 1.5);
    align-items: start;
    padding: calc(var(--_space) * 2);
    border-radius: calc(var(--_radius) - 4px);
    border: 1px solid color-mix(in srgb, var(--_danger) 45%, var(--_border));
    background: color-mix(in srgb, var(--_danger) 7%, var(--_surface));
  }
  .error .icon {
    inline-size: 22px;
    block-size: 22px;
    color: var(--_danger);
  }
  .error-text {
    display: grid;
    gap: 2px;
  }
  .error-hint,
  .error-detail {
    font-size: 0.9375em;
  }
  .error-detail {
    color: var(--_muted);
  }
  .error .actions {
    grid-column: 1 / -1;
  }
`;
