import { css } from 'lit';

/** The job view's rules (the result, the turntable, the stats, the keep line), added when job-view.ts loads. */
export const jobViewStyles = css`
  .reference {
    margin: 0;
    display: grid;
    gap: 4px;
    justify-items: start;
  }
  .reference img {
    inline-size: min(240px, 100%);
    aspect-ratio: 1;
    object-fit: cover;
    border-radius: calc(var(--_radius) - 4px);
    border: 1px solid var(--_border);
  }
  .result-grid {
    display: grid;
    grid-template-columns: minmax(0, 2fr) minmax(0, 1fr);
    gap: calc(var(--_space) * 2);
    align-items: start;
  }
  @container (max-width: 600px) {
    .result-grid {
      grid-template-columns: minmax(0, 1fr);
    }
  }
  glb-viewer {
    display: block;
  }
  .turntable {
    margin: 0;
    display: grid;
    gap: 4px;
  }
  .turntable video {
    inline-size: 100%;
    max-inline-size: 320px;
    aspect-ratio: 1;
    border-radius: calc(var(--_radius) - 4px);
    border: 1px solid var(--_border);
    background: var(--_surface-2);
    display: block;
  }
  .seed strong {
    font-size: 1.125em;
  }
  table.stats {
    border-collapse: collapse;
    inline-size: 100%;
    font-size: 0.9375em;
  }
  table.stats caption {
    text-align: start;
    font-weight: 600;
    padding-block-end: var(--_space);
  }
  table.stats tbody {
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(150px, 1fr));
    gap: 0 calc(var(--_space) * 2);
  }
  table.stats tr {
    display: flex;
    justify-content: space-between;
    gap: var(--_space);
    border-block-end: 1px solid var(--_border);
    padding: 6px 0;
  }
  table.stats th {
    font-weight: normal;
    color: var(--_muted);
    text-align: start;
  }
  table.stats td {
    font-weight: 600;
    font-variant-numeric: tabular-nums;
    text-align: end;
  }
  .refund {
    color: var(--_success);
    font-weight: 600;
  }
  .failed .error-title {
    font-size: 1em;
  }
  /* Where keeping the model stands: quiet, under the actions; its failure in the error colour. */
  .keep {
    margin: calc(var(--_space) * 1.5) 0 0;
    font-size: 0.875em;
    color: var(--_muted);
  }
  .keep.failed {
    color: var(--_danger);
  }
  .keep [part~='keep-retry'] {
    margin-inline-start: var(--_space);
  }
`;
