import { css } from 'lit';

export const badgeStyles = css`
  :host {
    display: inline-block;
    vertical-align: middle;
  }
  .badge {
    display: inline-flex;
    align-items: center;
    flex-wrap: wrap;
    gap: 6px var(--_space);
    min-block-size: 36px;
    padding: 4px calc(var(--_space) * 1.5);
    border: 1px solid var(--_border);
    border-radius: 18px;
    background: var(--_surface);
    font-variant-numeric: tabular-nums;
    line-height: 1.2;
  }
  :host(:state(low)) .badge {
    border-color: color-mix(in srgb, var(--_danger) 60%, var(--_border));
  }
  svg {
    inline-size: 18px;
    block-size: 18px;
    color: var(--_accent);
    flex: none;
  }
  .value {
    font-weight: 600;
    white-space: nowrap;
  }
  .loading .value {
    color: var(--_muted);
    font-weight: 400;
  }
  .tag {
    font-size: 0.8125em;
    font-weight: 600;
    padding: 1px 6px;
    border-radius: 999px;
    border: 1px solid currentColor;
  }
  .tag.low {
    color: var(--_danger);
  }
  .tag.offline {
    color: var(--_muted);
  }
  button.link,
  a[part~='top-up'] {
    min-block-size: 32px;
    padding: 0 4px;
    font-size: 0.875em;
    color: var(--_accent);
  }
  @media (pointer: coarse) {
    button.link,
    a[part~='top-up'] {
      min-block-size: 44px;
      display: inline-flex;
      align-items: center;
    }
  }
`;
