import { html, type TemplateResult } from 'lit';

/**
 * A drop zone's limits line ("MP4 or MOV · up to 3 minutes · up to 1080p · …"), described by the
 * input as `#limits`. A short item never breaks inside ("up to / 1080p" on a phone): a narrow card
 * wraps between items instead.
 */
export function limitsLine(text: string): TemplateResult {
  return html`<p class="muted limits" id="limits">${text.split(' · ').map((item, i) => html`${i ? ' · ' : ''}<span class=${item.length <= 24 ? 'keep' : ''}>${item}</span>`)}</p>`;
}
