/**
 * `BgCard`: the card of <bg-tool> drawn from the element's parts. It makes what the views are
 * given (`BgView`) at each render, loads the image views (the picture, the comparison and the
 * options: when the browser is idle after connect, or at once when an image or a result comes
 * first), keeps the comparison's controller once they are in, and says what field mode shows and
 * what a value whose kept image is gone still says. The element hands its parts over once.
 */
import { html, nothing, type ReactiveControllerHost } from 'lit';
import { COSTS } from '../../api/index.js';
import type { AnnouncerController } from '../shared/announcer.js';
import { renderCost, type CreditsController } from '../shared/credits.js';
import type { FieldFacts } from '../shared/field.js';
import type { FileIntakeController } from '../shared/file-intake.js';
import { ErrorPanelController, LazyModuleController } from '../shared/lazy-panel.js';
import type { RequestController } from '../shared/request-controller.js';
import type { ResultValueController } from '../shared/result-value.js';
import { isSavedFileGone } from '../shared/saved-file-gone.js';
import type { CompareController } from './compare.js';
import type { BgImage } from './image.js';
import type { BgOutcome } from './outcome.js';
import type { BgOptions, BgView } from './types.js';
import type { UrlField } from './url-field.js';
import type { BgToolValue } from './value.js';
import { renderBody } from './views.js';

const loadViews = () => import('./image-views.js');

/** What the card reads of the element at each render: its public state. */
type Host = ReactiveControllerHost &
  HTMLElement &
  BgOptions & {
    readonly file: File | null;
    readonly status: string;
    topUpHref: string;
    start(): Promise<void>;
    copy(): Promise<boolean>;
    selectUrl(url: string): void;
  };

export interface BgParts {
  t: BgView['t'];
  credits: CreditsController;
  request: RequestController;
  image: BgImage;
  outcome: BgOutcome;
  url: UrlField;
  intake: FileIntakeController;
  announce: AnnouncerController;
  results: () => ResultValueController<BgToolValue>;
  /** The user starts over ("Use another image"): the image, the result and the value go. */
  startOver(): void;
}

export class BgCard {
  readonly #host: Host;
  readonly #p: BgParts;
  readonly #views: LazyModuleController<typeof import('./image-views.js')>;
  readonly #panel: ErrorPanelController;
  #compare: CompareController | undefined;
  /** What the controls do. */
  readonly #actions: Pick<BgView, 'start' | 'reset' | 'copy' | 'choose' | 'useUrl' | 'setOptions'> = {
    start: () => void this.#host.start(),
    reset: () => this.#p.startOver(),
    copy: () => void this.#host.copy(),
    choose: () => this.#p.intake.open(),
    useUrl: () => this.#host.selectUrl(this.#p.url.text),
    setOptions: (options) => Object.assign(this.#host, options),
  };

  constructor(host: Host, parts: BgParts) {
    this.#host = host;
    this.#p = parts;
    this.#views = new LazyModuleController(host, loadViews, { styles: (m) => m.viewStyles });
    this.#panel = new ErrorPanelController(host);
  }

  /** Loads the image views when an image or a result is shown before they loaded; true when it had to. */
  async settle(): Promise<boolean> {
    if (this.#views.module || (!this.#p.image.source && !this.#p.outcome.result)) return false;
    await this.#views.load().catch(() => undefined);
    return true;
  }

  /** The card; `disabled`: the element (or its fieldset) is; `colour`: what the colour input shows. */
  render(disabled: boolean, colour: string) {
    const { t, image, credits } = this.#p;
    const views = this.#views.module;
    const topUpHref = this.#host.topUpHref || undefined;
    return html`<section part="base" class="card" aria-labelledby="title" lang=${t.resolved} dir=${t.dir}>
      <header class="head">
        <h2 id="title">${t.term('bgTitle')}</h2>
        ${image.source ? renderCost(t, COSTS.imageTool, credits.remaining, topUpHref) : nothing}
      </header>
      ${renderBody(this.#view(views, disabled, colour), views)}
      ${this.#p.announce.render()}
    </section>`;
  }

  #view(views: typeof import('./image-views.js') | undefined, disabled: boolean, colour: string): BgView {
    const { t, image, outcome, request, results } = this.#p;
    const host = this.#host;
    return {
      ...this.#actions,
      t,
      image,
      intake: this.#p.intake,
      // Read only by the image views, so made once they are in.
      compare: (this.#compare ??= views && new views.CompareController(host))!,
      panel: this.#panel,
      size: host.size,
      format: host.format,
      bgColor: host.bgColor,
      crop: host.crop,
      colour,
      result: outcome.result,
      restoring: outcome.restoring,
      restore: outcome.retry,
      keepLine: results().render(t),
      error: image.error ?? outcome.error,
      savedFacts: this.#savedFacts(),
      waitSeconds: request.waitSeconds,
      busy: request.busy,
      disabled,
      short: (this.#p.credits.remaining ?? Infinity) < COSTS.imageTool,
      url: this.#p.url,
      notice: outcome.notice,
      fileName: host.file?.name ?? 'image.png',
      topUpHref: host.topUpHref || undefined,
    };
  }

  /** What a value whose kept image is gone still says: its dimensions, format and charge. */
  #savedFacts(): string | undefined {
    const { t, outcome } = this.#p;
    const v = this.#p.results().value;
    if (!v || !isSavedFileGone(outcome.error)) return undefined;
    return `${t.f.dims(v.width, v.height)} ${v.format.toUpperCase()} · ${t.term('credits', { n: v.charged })}`;
  }

  /** What field mode shows of the value. */
  fieldFacts(): FieldFacts {
    const { t } = this.#p;
    const v = this.#p.results().value;
    return {
      t,
      title: t.term('bgTitle'),
      detail: v ? `${t.f.number(v.width)}×${t.f.number(v.height)} ${v.format.toUpperCase()}` : undefined,
      preview: v?.asset?.url,
      busy: this.#host.status === 'sending',
    };
  }
}
