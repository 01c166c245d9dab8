/**
 * <bg-tool>'s picture: the original alone while there is no result, then the before/after
 * comparison with the result's facts (size, dimensions, format, what the answer charged), its
 * actions (download, copy where the browser allows, a new image) and whether it is kept. A result
 * from a value has no original here: the result alone, in its own shape. Rendering only; the
 * element owns the state.
 */
import { html, nothing } from 'lit';
import { safeUrl } from '../../internal/safe-url.js';
import { styleProps } from '../../internal/style-props.js';
import { shape } from './compare.js';
import type { BgView, ShownResult } from './types.js';

export function renderBefore(v: BgView) {
  const { t, image } = v;
  const unshown = image.beforeUrl !== undefined && image.unshown === image.beforeUrl;
  return html`<div class="before-only">
    <div class="picture" style=${styleProps(shape(image.ratio))}>
      <img src=${image.beforeUrl ?? nothing} alt=${t.term('bgBeforeAlt')} ?hidden=${unshown} @load=${(e: Event) => image.loaded(e.target as HTMLImageElement)}
        @error=${() => image.beforeUrl && image.failedToShow(image.beforeUrl)} />
      ${
        unshown
          ? html`<div class="no-preview">
            <svg viewBox="0 0 24 24" aria-hidden="true"><path fill="none" stroke="currentColor" stroke-width="1.6" stroke-linecap="round" stroke-linejoin="round" d="M4 5h16v14H4zM4 15l4.5-4.5 4 4 2.5-2.5L20 17M15.5 9.5h.01"/></svg>
            <p class="muted">${t.term('bgNoPreview')}</p>
          </div>`
          : nothing
      }
    </div>
    <p class="muted file-name">${image.source instanceof File ? image.source.name : t.term('bgFromUrl')} ·
      <button type="button" class="link" ?disabled=${v.disabled} @click=${v.reset}>${t.term('bgNewImage')}</button></p>
  </div>`;
}

export function renderResult(v: BgView, r: ShownResult) {
  const t = v.t;
  // A picture shown by its URL alone (a value's kept image that is no file) has no bytes to copy.
  const canCopy = !!r.blob && typeof ClipboardItem !== 'undefined' && typeof navigator.clipboard?.write === 'function';
  return html`<div class="result">
    <h3 class="result-title" tabindex="-1">${t.term('bgDone')}</h3>
    ${
      v.image.beforeUrl === undefined
        ? renderAlone(v, r)
        : v.compare.render(
            v.image.beforeUrl,
            r.url,
            {
              slider: t.term('bgSlider'),
              value: (percent) => t.term('bgSliderValue', { percent }),
              hint: t.term('bgSliderHint'),
              before: t.term('bgBefore'),
              after: t.term('bgAfter'),
              beforeAlt: t.term('bgBeforeAlt'),
              afterAlt: t.term('bgAfterAlt'),
            },
            v.image.ratio ?? r.width / r.height,
          )
    }
    <dl class="facts" part="facts">
      <div><dt>${t.term('bgFactSize')}</dt><dd>${t.f.bytes(r.blob ? r.blob.size : r.bytes)}</dd></div>
      <div><dt>${t.term('bgFactDims')}</dt><dd>${t.f.dims(r.width, r.height)}</dd></div>
      <div><dt>${t.term('bgFactFormat')}</dt><dd>${r.format.toUpperCase()}</dd></div>
      <div><dt>${t.term('bgFactCharged')}</dt><dd>${t.term('credits', { n: r.charged })}</dd></div>
    </dl>
    <div class="actions">
      ${safeUrl(r.url) ? html`<a part="download" class="button primary" href=${r.url} download=${v.fileName}>${t.term('bgDownload')}</a>` : nothing}
      ${
        canCopy
          ? html`<button type="button" part="copy-button" class="secondary" ?disabled=${v.disabled} @click=${v.copy}>${t.term('bgCopy')}</button>`
          : nothing
      }
      <button type="button" class="link" ?disabled=${v.busy || v.disabled} @click=${v.reset}>${t.term('bgNewImage')}</button>
    </div>
    ${v.keepLine}
    ${v.notice ? html`<p class="notice">${v.notice}</p>` : nothing}
  </div>`;
}

/** The result without its original (restored from a value): over the checkerboard, in its own shape. */
function renderAlone(v: BgView, r: ShownResult) {
  return html`<div class="picture" style=${styleProps(shape(r.width / r.height))}>
    <img class="checkerboard" src=${safeUrl(r.url) ?? nothing} alt=${v.t.term('bgAfterAlt')} draggable="false" />
  </div>`;
}
