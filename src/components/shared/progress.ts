/**
 * The progress bar of every element (`part="progress"`, drawn by `.meter` in styles.ts): a
 * determinate bar with its percentage and a spoken value, or, when the amount is unknown, the
 * indeterminate sliding bar (no `aria-valuenow`, as ARIA asks). Its width is set through CSSOM
 * (styleProps), never a `style` attribute, so a strict CSP allows it.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { styleProps } from '../../internal/style-props.js';

/**
 * `fraction`: 0 to 1, or undefined when unknown. `valueText`: what a screen reader says for the
 * value ("Uploading: 40 %, 2 MB of 5 MB"). `label`: the bar's name; by default the value text up
 * to its first colon ("Uploading").
 */
export function renderProgress(
  fraction: number | undefined,
  valueText: string,
  label = valueText.split(':')[0]!,
): TemplateResult {
  const pct = fraction === undefined ? undefined : Math.round(Math.max(0, Math.min(1, fraction)) * 100);
  return html`<div part="progress" class="meter ${pct === undefined ? 'indeterminate' : ''}" role="progressbar" aria-label=${label}
    aria-valuemin="0" aria-valuemax="100" aria-valuenow=${pct ?? nothing} aria-valuetext=${valueText}>
    <div style=${styleProps(pct === undefined ? {} : { inlineSize: `${pct}%` })}></div>
  </div>`;
}
