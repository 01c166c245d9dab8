/**
 * The showcase: the product elements working on one page, styled like a product page, with the
 * developer tools (sandbox clock, faults, ledger, the raw API calls) in a panel of their own. The
 * page says where the proxy is (`endpoint`) and how to reach its sandbox (`devTools`, see
 * dev-tools.ts), so `npm start`'s front page (the Node sandbox) and a page whose sandbox runs
 * elsewhere share this module.
 *
 * Below 640 px the product elements show as fields (`appearance="field"`): a compact box each, the
 * whole tool in a dialog, so all of them are on a phone's first screen.
 */
import { html, nothing, render, type TemplateResult } from 'lit';
import '../src/components/bg-tool/define.js';
import '../src/components/credit-badge/define.js';
import '../src/components/headshot-studio/define.js';
import '../src/components/model-generator/define.js';
import '../src/components/video-to-3d-uploader/define.js';
import type { ProductElement } from '../src/components/shared/product-element.js';
import { watchApiCalls } from './api-log.js';
import type { DevTools } from './dev-tools.js';
import { sampleViews } from './model-generator.samples.js';
import { sampleProduct, sampleSelfie } from './samples.js';
import { DevPanel } from './showcase-panel.js';

export interface ShowcaseOptions {
  /** The proxy every element talks to. */
  endpoint: string;
  /** The sandbox's clock, faults and ledger for the developer tools panel. */
  devTools: DevTools;
  /** The sample walkthrough video. Default: demo/media/walkthrough.mp4. */
  sampleVideo?: string | URL;
  /** What the "How this page works" section says. Default: the `npm start` dev stack. */
  about?: TemplateResult;
}

export interface Showcase {
  /** Stops listening (the page's calls, the width, the clock) and empties the root. */
  dispose(): void;
}

interface Card {
  tag: 'bg-tool' | 'headshot-studio' | 'video-to-3d-uploader' | 'model-generator';
  title: string;
  caption: string;
  sample: string;
  /** Gives the element its sample input. */
  useSample(el: HTMLElement): Promise<void>;
}

const PHONE = '(max-width: 639.98px)';

/** The pages beside this one, linked below the fold and from the panel. */
export const PAGES: ReadonlyArray<{ href: string; text: string; about: string }> = [
  { href: './bg-tool.html', text: '<bg-tool>', about: 'inside a product edit form, with its events' },
  { href: './headshot-studio.html', text: '<headshot-studio>', about: 'the chosen headshot as a form value' },
  { href: './model-generator.html', text: '<model-generator>', about: 'photos or a description, made again by seed' },
  {
    href: './video-to-3d-uploader.html',
    text: '<video-to-3d-uploader>',
    about: 'reload mid-upload and watch it resume',
  },
  { href: './credit-badge.html', text: '<credit-badge>', about: 'formats, the low threshold, errors' },
  { href: './cms-form.html', text: 'In a CMS edit form', about: 'all four in field mode, saved and shown again' },
  { href: './jobs.html', text: 'The job engine by hand', about: 'MediaClient and JobPoller without elements' },
  { href: './viewers.html', text: 'The viewers', about: '<glb-viewer> and <splat-viewer>' },
];

export function mountShowcase(root: HTMLElement, options: ShowcaseOptions): Showcase {
  const { endpoint } = options;
  const video = options.sampleVideo ?? new URL('./media/walkthrough.mp4', import.meta.url);
  const phone = matchMedia(PHONE);
  let announcement = '';
  // Each message replaces the last; the same words twice in a row are still read.
  const announce = (text: string) => {
    announcement = announcement === text ? `${text}\u00a0` : text;
    draw();
  };
  const panel = new DevPanel(options.devTools, endpoint, PAGES, {
    changed: () => draw(),
    announce,
    opened: (open) => document.body.classList.toggle('devtools-open', open),
  });
  const stopCalls = watchApiCalls(endpoint, (call) => panel.record(call));

  const cards: Card[] = [
    {
      tag: 'bg-tool',
      title: 'Cut-outs',
      caption: 'cuts a photo out of its background.',
      sample: 'Try a sample',
      useSample: async (el) => (el as HTMLElementTagNameMap['bg-tool']).selectFile(await sampleProduct()),
    },
    {
      tag: 'headshot-studio',
      title: 'Headshots',
      caption: 'makes four headshots from a selfie.',
      sample: 'Try a sample',
      useSample: async (el) => (el as HTMLElementTagNameMap['headshot-studio']).selectFile(await sampleSelfie()),
    },
    {
      tag: 'video-to-3d-uploader',
      title: '3D scenes',
      caption: 'turns a video into a 3D scene.',
      sample: 'Try a sample',
      useSample: async (el) => {
        const blob = await (await fetch(video)).blob();
        (el as HTMLElementTagNameMap['video-to-3d-uploader']).selectFile(
          new File([blob], 'walkthrough.mp4', { type: 'video/mp4' }),
        );
      },
    },
    {
      tag: 'model-generator',
      title: '3D models',
      caption: 'makes a 3D model from photos or words.',
      sample: 'Try a sample',
      useSample: async (el) => {
        const generator = el as HTMLElementTagNameMap['model-generator'];
        generator.mode = 'photos';
        generator.images = await sampleViews();
      },
    },
  ];

  const sample = async (card: Card, button: HTMLButtonElement) => {
    const el = root.querySelector<HTMLElement & ProductElement>(`#sc-${card.tag}`);
    if (!el) return;
    button.disabled = true;
    try {
      await card.useSample(el);
      // A field shows what it holds in its dialog: open it on the sample.
      if (el.appearance === 'field') el.expand('open');
      announce(`${card.title}: sample loaded.`);
    } catch (err) {
      announce(`${card.title}: the sample could not load (${err instanceof Error ? err.message : String(err)}).`);
    } finally {
      button.disabled = false;
    }
  };

  const element = (card: Card): TemplateResult => {
    const appearance = phone.matches ? 'field' : 'full';
    const id = `sc-${card.tag}`;
    const label = `${id}-title`;
    switch (card.tag) {
      case 'bg-tool':
        return html`<bg-tool id=${id} endpoint=${endpoint} appearance=${appearance} aria-labelledby=${label}></bg-tool>`;
      case 'headshot-studio':
        return html`<headshot-studio
          id=${id}
          endpoint=${endpoint}
          appearance=${appearance}
          aria-labelledby=${label}
        ></headshot-studio>`;
      case 'video-to-3d-uploader':
        return html`<video-to-3d-uploader
          id=${id}
          endpoint=${endpoint}
          appearance=${appearance}
          aria-labelledby=${label}
        ></video-to-3d-uploader>`;
      case 'model-generator':
        return html`<model-generator
          id=${id}
          endpoint=${endpoint}
          appearance=${appearance}
          aria-labelledby=${label}
        ></model-generator>`;
    }
  };

  const card = (c: Card): TemplateResult =>
    html`<article class="card" aria-labelledby="sc-${c.tag}-title">
      <div class="card-head">
        <h3 id="sc-${c.tag}-title">${c.title}</h3>
        <button
          type="button"
          class="sample"
          @click=${(e: Event) => sample(c, e.currentTarget as HTMLButtonElement)}
        >
          ${c.sample}<span class="visually-hidden"> for ${c.title}</span>
        </button>
      </div>
      <p class="caption"><code>&lt;${c.tag}&gt;</code> ${c.caption}</p>
      ${element(c)}
    </article>`;

  const about =
    options.about ??
    html`<p>
        This dev server runs the <strong>session-token proxy</strong> at <code>/mediakit</code> in front of the
        <strong>sandbox</strong>, a local emulator of the whole media API, at <code>/sandbox</code>. The page holds no
        key: the elements ask the proxy for a session (this browser is known by an anonymous cookie and may spend 500
        credits a day) and call the same API paths through it, with job handles and signed download links.
      </p>
      <p>
        The sandbox has every endpoint of the spec, with credits, refunds, replays, rate limits and real artifacts. Its
        <strong>control plane</strong> at <code>/sandbox/__sandbox/…</code> (accounts, faults, clock, ledger) answers
        only this dev server's own pages, which get its token cookie as they load, and Node scripts that send
        <code>x-mediakit-dev-token</code>; the developer tools use it.
      </p>`;

  // Drawn once per task at most: a call that starts while the page draws (an element connecting)
  // asks for the next drawing, not for one inside this one.
  let queued = false;
  function draw(): void {
    if (queued) return;
    queued = true;
    queueMicrotask(paint);
  }

  function paint(): void {
    queued = false;
    render(
      html`<a class="skip" href="#sc-elements">Skip to the elements</a>
        <header class="site">
          <a class="brand" href="./" aria-label="mediakit elements, home">
            <svg viewBox="0 0 24 24" width="28" height="28" aria-hidden="true">
              <path
                fill="currentColor"
                d="M12 2.5 3.5 7v10l8.5 4.5 8.5-4.5V7L12 2.5zm0 2.3L18.1 8 12 11.2 5.9 8 12 4.8zM5.5 9.7l5.5 2.9v6.3l-5.5-2.9V9.7zm7.5 9.2v-6.3l5.5-2.9v6.3L13 18.9z"
              />
            </svg>
            <span>mediakit <span class="brand-sub">elements</span></span>
          </a>
          <div class="site-tools">
            <credit-badge endpoint=${endpoint} format="compact"></credit-badge>
            ${panel.renderToggle()}
          </div>
        </header>
        <main id="sc-main">
          <div class="hero">
            <h1>AI media tools, one tag each</h1>
            <p class="lede">
              Web components for any site, here on a local sandbox: nothing is billed.
            </p>
          </div>
          <section id="sc-elements" class="grid" aria-labelledby="sc-elements-title" tabindex="-1">
            <h2 id="sc-elements-title" class="visually-hidden">The elements</h2>
            ${cards.map(card)}
          </section>
          <section class="more" aria-labelledby="sc-how">
            <h2 id="sc-how">How this page works</h2>
            ${about}
            <p>
              The credit badge in the header is <code>&lt;credit-badge&gt;</code>: the credits this browser's session may
              still spend, moved by every charge on the page and in other tabs. The
              <strong>developer tools</strong> move the sandbox clock, arm a failure for the next call, show the ledger
              and list the raw calls this page made.
            </p>
            <h2 id="sc-pages">More demo pages</h2>
            <ul class="pages" aria-labelledby="sc-pages">
              ${PAGES.map((p) => html`<li><a href=${p.href} dir="auto">${p.text}</a>: ${p.about}</li>`)}
            </ul>
            <h2 id="sc-docs">Docs</h2>
            <p>
              The README in the repository has the install, the elements' attributes, events and parts, the proxy's
              options and the sandbox. <code>npm run storybook</code> shows every element state as a story.
            </p>
          </section>
        </main>
        ${panel.render()}
        <footer class="site-foot"><p>@mediakit/elements · web components for credit-metered AI media</p></footer>
        <p class="visually-hidden" role="status" aria-live="polite">${announcement}</p>`,
      root,
    );
  }

  const onWidth = () => draw();
  phone.addEventListener('change', onWidth);
  paint();
  panel.start();
  return {
    dispose() {
      stopCalls();
      phone.removeEventListener('change', onWidth);
      panel.stop();
      render(nothing, root);
    },
  };
}
