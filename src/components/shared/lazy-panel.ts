/**
 * One rule for code an element shows only sometimes (the error panel and its words, a view of a
 * later phase): it is not part of the page's first load. `LazyModuleController` imports it when
 * the browser is idle after the element connects (`idle`, the default) or the first time a render
 * asks for it, renders nothing until it is in, and then asks the host to render again. A module
 * may bring its own styles (`styles`), added to the element's shadow root once it is in.
 */
import {
  nothing,
  type CSSResult,
  type ReactiveController,
  type ReactiveControllerHost,
  type ReactiveElement,
} from 'lit';
import { loadOnce } from '../../internal/small.js';
import type { ErrorPanelOptions } from './error-panel.js';
import type { LocalizeController } from './localize.js';
import type { SharedStrings } from './strings.js';

const whenIdle = (fn: () => void) =>
  'requestIdleCallback' in globalThis ? requestIdleCallback(fn) : setTimeout(fn, 200);

export interface LazyModuleOptions<M> {
  /** Load when the browser is idle after connect (default), or `false`: only when asked. */
  idle?: boolean;
  /** The module's own styles, adopted after the element's once it is in. */
  styles?: (module: M) => CSSResult | CSSResult[];
}

export class LazyModuleController<M> implements ReactiveController {
  readonly host: ReactiveControllerHost;
  readonly #load: () => Promise<M>;
  readonly #o: LazyModuleOptions<M>;
  #module: M | undefined;
  #loading: Promise<M> | undefined;
  #styled: ShadowRoot | undefined;

  /** `load` should be a memoized `import()`. */
  constructor(host: ReactiveControllerHost, load: () => Promise<M>, options: LazyModuleOptions<M> = {}) {
    this.host = host;
    this.#load = load;
    this.#o = options;
    host.addController(this);
  }

  /** The module once loaded; until then undefined, and asking starts the load. */
  get module(): M | undefined {
    if (!this.#module) void this.load().catch(() => undefined);
    return this.#module;
  }

  /** Loads the module (once); the host renders again when it is in. */
  load(): Promise<M> {
    return (this.#loading ??= this.#load().then(
      (m) => {
        this.#module = m;
        this.host.requestUpdate();
        return m;
      },
      (err: unknown) => {
        // A failed chunk (offline, a new deploy): the next render asks again.
        this.#loading = undefined;
        console.warn('[mediakit] a part of the element could not be loaded', err);
        throw err;
      },
    ));
  }

  hostConnected(): void {
    if (this.#o.idle !== false && !this.#module) whenIdle(() => void this.load().catch(() => undefined));
  }

  hostUpdated(): void {
    const root = (this.host as ReactiveElement).renderRoot;
    if (!this.#module || !this.#o.styles || this.#styled === root || !(root instanceof ShadowRoot)) return;
    this.#styled = root;
    for (const styles of [this.#o.styles(this.#module)].flat()) addStyles(root, styles);
  }
}

/**
 * Adds a lazily loaded module's styles to a shadow root, after what it has: the element's own and
 * any other module's (several load in any order: the views, the error panel, field mode), once.
 */
export function addStyles(root: ShadowRoot, styles: CSSResult): void {
  const sheet = styles.styleSheet;
  if (sheet && root.adoptedStyleSheets) {
    if (!root.adoptedStyleSheets.includes(sheet)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
    return;
  }
  // No constructable sheets: a <style> element, as Lit does there.
  const text = styles.cssText;
  if ([...root.querySelectorAll('style')].some((s) => s.textContent === text)) return;
  const style = document.createElement('style');
  style.textContent = text;
  root.append(style);
}

type Panel = typeof import('./error-panel.js');
const loadPanel = loadOnce(() => import('./error-panel.js'));

/** The error panel (`part="error"`, role=alert) of every element, loaded on idle after connect. */
export class ErrorPanelController extends LazyModuleController<Panel> {
  constructor(host: ReactiveControllerHost) {
    super(host, loadPanel, { styles: (m) => m.errorStyles });
  }

  /** The panel for `error`, or nothing while its code loads (an update follows when it is in). */
  render(t: LocalizeController<SharedStrings>, error: unknown, options?: ErrorPanelOptions) {
    const m = this.module;
    return m ? m.renderErrorPanel(t, error, options) : nothing;
  }
}
