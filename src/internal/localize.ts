/**
 * Localization for every element, in the style of @shoelace-style/localize (not @lit/localize,
 * whose configure-once global clashes with host apps that use it).
 *
 * The locale is the element's `lang`, else the closest `[lang]` ancestor (across shadow roots),
 * else `<html lang>`, followed when any of them changes; regional fallback `de-AT` → `de` → `en`.
 * English is bundled; other languages register themselves (`registerTranslation`) or are loaded
 * lazily the first time an element needs them (`registerLoader`). Each element may override single
 * strings through its `strings` property.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { isServer } from 'lit';
import { Formatter } from './format.js';

/** A term: plain text, or a function of its parameters and the locale's formatter. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Term = string | ((params: any, f: Formatter) => string);
export type Dictionary = Record<string, Term>;

/** The parameters a term takes (none for plain text). */
export type ParamsOf<T> = T extends (params: infer P, f: Formatter) => string ? P : undefined;

const translations = new Map<string, Dictionary>();
const loaders = new Map<string, Set<() => Promise<unknown>>>();
const loading = new Map<string, Promise<void>>();
const connected = new Set<LocalizeController>();

/** Adds (or overrides) strings of a language, for example `registerTranslation('fr', { ... })`. */
export function registerTranslation(code: string, dictionary: Dictionary): void {
  const key = code.toLowerCase();
  translations.set(key, { ...translations.get(key), ...dictionary });
  loading.delete(key);
  for (const c of connected) c.host.requestUpdate();
}

/** A language's strings that load on first use (German for every element ships this way). */
export function registerLoader(code: string, load: () => Promise<unknown>): void {
  const key = code.toLowerCase();
  let set = loaders.get(key);
  if (!set) loaders.set(key, (set = new Set()));
  set.add(load);
  loading.delete(key);
}

function ensureLoaded(code: string): Promise<void> | undefined {
  const set = loaders.get(code);
  if (!set?.size) return undefined;
  let p = loading.get(code);
  if (!p) {
    p = Promise.all([...set].map((load) => load())).then(
      () => undefined,
      (err: unknown) => console.warn(`[mediakit] strings for "${code}" could not be loaded; showing English`, err),
    );
    loading.set(code, p);
    set.clear();
  }
  return p;
}

/** The closest `lang` from an element upwards, crossing shadow roots. */
export function closestLang(el: Element): string {
  let node: Node | null = el;
  while (node) {
    if (node instanceof Element && node.hasAttribute('lang')) {
      const lang = node.getAttribute('lang')!;
      if (lang) return lang;
    }
    node = node instanceof ShadowRoot ? node.host : node.parentNode;
  }
  return '';
}

let observer: MutationObserver | undefined;
function observeLangs(): void {
  if (observer || isServer) return;
  // One observer for the whole document: lang changes are rare, and any of them can change what
  // some element resolves to. Elements' own `lang` is reactive through MkElement.
  observer = new MutationObserver(() => {
    for (const c of connected) c.host.requestUpdate();
  });
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['lang', 'dir'], subtree: true });
}

type Host = ReactiveControllerHost & HTMLElement & { strings?: Partial<Dictionary> | undefined };

export class LocalizeController<D extends Dictionary = Dictionary> implements ReactiveController {
  readonly host: Host;
  #formatter: Formatter | undefined;

  constructor(host: Host) {
    this.host = host;
    host.addController(this);
  }

  hostConnected(): void {
    connected.add(this as LocalizeController);
    observeLangs();
  }

  hostDisconnected(): void {
    connected.delete(this as LocalizeController);
  }

  hostUpdate(): void {
    // Start loading the strings of a language seen for the first time; render again when in.
    for (const code of this.#chain()) {
      const p = ensureLoaded(code);
      if (p) void p.then(() => this.host.requestUpdate());
    }
  }

  /** The resolved language tag (`de-AT`, `en`, ...). */
  get lang(): string {
    if (isServer) return this.host.getAttribute('lang') || 'en';
    return closestLang(this.host) || document.documentElement.lang || 'en';
  }

  /** The language whose strings are shown (the first of the fallback chain that has them). */
  get resolved(): string {
    return this.#chain().find((c) => translations.has(c)) ?? 'en';
  }

  get dir(): 'ltr' | 'rtl' {
    // Lit's server DOM shim has no closest(): on the server only the element's own dir counts.
    const d = isServer ? this.host.getAttribute('dir') : (this.host.closest('[dir]')?.getAttribute('dir') ?? document.documentElement.dir);
    return d === 'rtl' ? 'rtl' : 'ltr';
  }

  /** Number, byte, duration and credit formatting for the resolved language. */
  get f(): Formatter {
    const lang = this.#chain()[0]!;
    if (this.#formatter?.locale !== lang) this.#formatter = new Formatter(lang);
    return this.#formatter;
  }

  /** The text of a term in the element's language (per-element overrides first). */
  term<K extends keyof D & string>(key: K, ...params: ParamsOf<D[K]> extends undefined ? [] : [ParamsOf<D[K]>]): string {
    const override = this.host.strings?.[key];
    const found = override ?? this.#chain().map((c) => translations.get(c)?.[key]).find((t) => t !== undefined) ?? translations.get('en')?.[key];
    if (found === undefined) return key;
    return typeof found === 'function' ? found(params[0], this.f) : found;
  }

  #chain(): string[] {
    const tag = this.lang.toLowerCase();
    const parts = tag.split('-');
    const chain: string[] = [];
    for (let i = parts.length; i > 0; i--) chain.push(parts.slice(0, i).join('-'));
    if (!chain.includes('en')) chain.push('en');
    return chain;
  }
}
