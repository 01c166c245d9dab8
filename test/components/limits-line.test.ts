/**
 * The drop zones' limits lines ("MP4 or MOV · up to 3 minutes · …") as Chromium lays them out
 * (issue 33, item 8): at every width a card is shown at, in a left-to-right and a right-to-left
 * language, the line takes one or two lines, and no line starts or ends with a separator (a lone
 * "·" on a line of its own, or one left dangling at a line's end). Measured from the rendered
 * glyphs, not from the markup. Also what the lines say (issue 32): the image elements take HEIC
 * and photos over 12 MB (made smaller on this device), the uploader makes longer or larger videos fit.
 */
import { expect, fixture, html } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import '../../src/components/bg-tool/define.js';
import '../../src/components/headshot-studio/define.js';
import '../../src/components/model-generator/define.js';
import '../../src/components/video-to-3d-uploader/define.js';
import { LitElement } from 'lit';
import { itemsLine } from '../../src/components/shared/limits.js';
import { elementStyles } from '../../src/components/shared/styles.js';
import { until } from '../fixtures/browser.js';

/** A box with the elements' styles showing one line of items (the uploader's converting figures). */
class ItemsProbe extends LitElement {
  static override styles = elementStyles;
  static override properties = { items: { attribute: false } };
  items: string[] = [];
  override render() {
    return itemsLine(this.items, 'muted nums');
  }
}
customElements.define('items-line-probe', ItemsProbe);

const ELEMENTS = {
  'video-to-3d-uploader': '/mk-video',
  'bg-tool': '/mk-bg',
  'headshot-studio': '/mk-headshot',
  'model-generator': '/mk-model',
} as const;
type Tag = keyof typeof ELEMENTS;

const WIDTHS = [1000, 600, 390, 320];
const SEPARATOR = '·';

/** The limits line of a fresh `tag` in a column `width` px wide, in `lang`, once its words are in that language. */
async function limitsOf(tag: Tag, width: number, lang: string): Promise<HTMLElement> {
  const wrap = await fixture<HTMLDivElement>(html`<div style="inline-size:${width}px" lang=${lang}></div>`);
  const el = document.createElement(tag);
  el.setAttribute('endpoint', ELEMENTS[tag]);
  wrap.append(el);
  await (el as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete;
  const line = () => el.shadowRoot?.querySelector<HTMLElement>('#limits') ?? undefined;
  // English until the language's dictionary is in: its first word tells.
  await until(
    () => !!line() && (lang === 'en' || !/\bup to\b/.test(line()!.textContent ?? '')),
    10_000,
    'the limits line',
  );
  // The separators at line starts are hidden after layout: two frames.
  for (let i = 0; i < 2; i++) await new Promise(requestAnimationFrame);
  return line()!;
}

/** The line of items (the part before a note sentence, where there is one). */
const itemsOf = (limits: HTMLElement): HTMLElement => limits.querySelector<HTMLElement>('.limits') ?? limits;

/** The rendered lines of `p`: its visible characters grouped by the line box they sit in. */
function renderedLines(p: HTMLElement): string[] {
  const chars: { ch: string; y: number; h: number }[] = [];
  const walker = document.createTreeWalker(p, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent ?? '';
    for (let i = 0; i < text.length; i++) {
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const r = range.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      chars.push({ ch: text[i]!, y: r.top + r.height / 2, h: r.height });
    }
  }
  const lines: { y: number; text: string }[] = [];
  for (const c of chars) {
    const line = lines.find((l) => Math.abs(l.y - c.y) < c.h / 2);
    if (line) line.text += c.ch;
    else lines.push({ y: c.y, text: c.ch });
  }
  return lines
    .sort((a, b) => a.y - b.y)
    .map((l) => l.text.replace(/\s+/g, ' ').trim())
    .filter(Boolean);
}

describe('drop zones: the limits line', function () {
  this.timeout(120_000);
  before(() => setViewport({ width: 1280, height: 900 }));
  after(() => setViewport({ width: 800, height: 600 }));

  for (const tag of Object.keys(ELEMENTS) as Tag[])
    for (const lang of ['en', 'ar', 'de'])
      it(`<${tag}> in ${lang}: one or two lines at ${WIDTHS.join(', ')} px, no line starts or ends with a separator`, async () => {
        for (const width of WIDTHS) {
          const lines = renderedLines(itemsOf(await limitsOf(tag, width, lang)));
          const at = `${width} px: ${JSON.stringify(lines)}`;
          expect(lines.length, at).to.be.within(1, 2);
          for (const line of lines) {
            expect(line.startsWith(SEPARATOR), `a line starts with the separator at ${at}`).to.equal(false);
            expect(line.endsWith(SEPARATOR), `a line ends with the separator at ${at}`).to.equal(false);
          }
        }
      });

  it('two lines are balanced: the shorter is at least a third of the longer', async () => {
    for (const tag of Object.keys(ELEMENTS) as Tag[])
      for (const width of WIDTHS) {
        const p = await limitsOf(tag, width, 'en');
        const lines = renderedLines(itemsOf(p));
        if (lines.length < 2) continue;
        const lengths = lines.map((l) => l.length);
        expect(Math.min(...lengths), `<${tag}> at ${width} px: ${JSON.stringify(lines)}`).to.be.at.least(
          Math.max(...lengths) / 3,
        );
      }
  });

  it('the image elements say they take HEIC and make large photos smaller (no 12 MB cap)', async () => {
    for (const tag of ['bg-tool', 'headshot-studio', 'model-generator'] as const) {
      const text = (await limitsOf(tag, 1000, 'en')).textContent!.replace(/\s+/g, ' ');
      expect(text, tag).to.match(/JPG, PNG, WebP,? or HEIC/);
      expect(text, tag).to.match(/larger photos are made smaller on this device/i);
      expect(text, tag).not.to.include('12 MB');
    }
  });

  it('the uploader says which videos are sent as they are and that longer or larger ones are made to fit', async () => {
    const text = (await limitsOf('video-to-3d-uploader', 1000, 'en')).textContent!.replace(/\s+/g, ' ');
    expect(text).to.include('MP4 or MOV');
    expect(text).to.match(/longer or larger.*made to fit/i);
  });

  it('the converting figures ("42% · 1,234 of 5,400 frames · about 3 minutes left") never leave a separator at a line end', async () => {
    for (const width of [600, 390, 320, 240, 180]) {
      const wrap = await fixture<HTMLDivElement>(html`<div style="inline-size:${width}px"></div>`);
      const probe = document.createElement('items-line-probe') as ItemsProbe;
      probe.items = ['42%', '1,234 of 5,400 frames', 'about 3 minutes left'];
      wrap.append(probe);
      await probe.updateComplete;
      for (let i = 0; i < 2; i++) await new Promise(requestAnimationFrame);
      const lines = renderedLines(probe.shadowRoot!.querySelector<HTMLElement>('p')!);
      for (const line of lines) {
        expect(line.startsWith(SEPARATOR), `${width} px: ${JSON.stringify(lines)}`).to.equal(false);
        expect(line.endsWith(SEPARATOR), `${width} px: ${JSON.stringify(lines)}`).to.equal(false);
      }
      expect(lines.join(' ').replace(/· /g, ''), `${width} px`).to.include('1,234 of 5,400 frames');
    }
  });
});
