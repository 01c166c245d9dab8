/**
 * Localization for every element, in the style of @shoelace-style/localize (not @lit/localize,
 * whose configure-once global clashes with host apps that use it).
 *
 * The locale is the element's `lang`, else the closest `[lang]` ancestor (across shadow roots),
 * else `<html lang>`, followed when any of them changes; regional fallback `de-AT` → `de` → `en`,
 * and by script (`zh-CN` → `zh-Hans`, `pt-PT` → `pt-BR`, never `zh-TW` → `zh-Hans`). English comes
 * with each element (the dictionaries it passes to its controller); the shipped languages load the
 * first time an element needs them. This layer imports no language: the layer above hands in the
 * shipped languages' loaders with `useLanguages` (the elements pass src/translations/languages.ts).
 * A site adds or overrides whole languages with `registerTranslation` and single strings through
 * an element's `strings` property.
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
/** Shipped languages asked for (loaded or loading), so each file is imported once. */
const shipped = new Map<string, Promise<void>>();
const english = new WeakSet<Dictionary>();
const connected = new Set<LocalizeController>();

/** Adds (or overrides) strings of a language, for example `registerTranslation('sv', { ... })`. */
export function registerTranslation(code: string, dictionary: Dictionary): void {
  const key = code.toLowerCase();
  translations.set(key, { ...translations.get(key), ...dictionary });
  for (const c of connected) c.host.requestUpdate();
}

/** A site's own language (or more strings of one) that load on first use. */
export function registerLoader(code: string, load: () => Promise<unknown>): void {
  const key = code.toLowerCase();
  let set = loaders.get(key);
  if (!set) loaders.set(key, (set = new Set()));
  set.add(load);
}

/** A shipped language's loader: a module whose default export is the language's dictionary. */
export type LanguageLoader = () => Promise<{ default: object }>;

/** The shipped languages' loaders by lowercase tag, as handed in by `useLanguages`. */
const languages: Record<string, LanguageLoader> = {};

/** The languages this package ships, as lowercase tags: English and those handed in. */
export const shippedLanguages: string[] = ['en'];

/**
 * Hands in the shipped languages (lowercase tag to loader). Each loads the first time an element
 * resolves to it; a tag handed in twice keeps its first loader.
 */
export function useLanguages(loaders: Readonly<Record<string, LanguageLoader>>): void {
  for (const [code, load] of Object.entries(loaders)) {
    const key = code.toLowerCase();
    if (languages[key]) continue;
    languages[key] = load;
    shippedLanguages.push(key);
  }
}

function ensureLoaded(code: string): Promise<void> | undefined {
  const work: Promise<unknown>[] = [];
  const ship = languages[code];
  if (ship && !shipped.has(code)) {
    // A site's own strings for the language (registered before or after) win over the shipped ones.
    const p = ship().then((m) => {
      translations.set(code, { ...(m.default as Dictionary), ...translations.get(code) });
      // Every element on the page that waits for this language, not only the one that asked first.
      for (const c of connected) c.host.requestUpdate();
    });
    shipped.set(code, p);
  }
  const set = loaders.get(code);
  if (set?.size) {
    work.push(...[...set].map((load) => load()));
    set.clear();
  }
  // Still loading (asked by this element or another): the caller renders again when it is in.
  if (ship && !translations.has(code)) work.push(shipped.get(code)!);
  if (!work.length) return undefined;
  return Promise.all(work).then(
    () => undefined,
    (err: unknown) => console.warn(`[mediakit] strings for "${code}" could not be loaded; showing English`, err),
  );
}

/** The lowercase tags to look a term up in, best first: the tag, its prefixes, its script, a sibling, English. */
export function fallbackChain(tag: string): string[] {
  const lower = tag.toLowerCase();
  const parts = lower.split('-');
  const chain: string[] = [];
  for (let i = parts.length; i > 0; i--) chain.push(parts.slice(0, i).join('-'));
  const base = parts[0]!;
  try {
    // zh-CN and zh-SG are written in Han Simplified (zh-Hans); zh-TW in Traditional, which we do not ship.
    const script = new Intl.Locale(lower).maximize().script?.toLowerCase();
    if (script && !chain.includes(`${base}-${script}`)) chain.push(`${base}-${script}`);
    // A sibling of the same language and script (pt-PT → pt-BR): closer than English.
    for (const known of shippedLanguages) {
      if (
        known.startsWith(base + '-') &&
        !chain.includes(known) &&
        new Intl.Locale(known).maximize().script?.toLowerCase() === script
      )
        chain.push(known);
    }
  } catch {
    // Not a valid tag: its prefixes and English only.
  }
  if (!chain.includes('en')) chain.push('en');
  return chain;
}

const RTL = new Set(['ar', 'he', 'fa', 'ur', 'ps', 'sd', 'yi', 'dv', 'ckb', 'ug']);

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

/** Registers an English dictionary once (elements pass theirs to their LocalizeController; the error panel its own). */
export function addEnglish(dictionary: Dictionary): void {
  if (english.has(dictionary)) return;
  english.add(dictionary);
  registerTranslation('en', dictionary);
}

type Host = ReactiveControllerHost & HTMLElement & { strings?: Partial<Dictionary> | undefined };

export class LocalizeController<D extends Dictionary = Dictionary> implements ReactiveController {
  readonly host: Host;
  #formatter: Formatter | undefined;

  /** `english`: the element's English dictionaries (each registered once, the first time an element uses it). */
  constructor(host: Host, ...english: Dictionary[]) {
    this.host = host;
    for (const d of english) addEnglish(d);
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

  /** The closest `dir`; without one, the direction of the element's language (`ar` → `rtl`). */
  get dir(): 'ltr' | 'rtl' {
    // Lit's server DOM shim has no closest(): on the server only the element's own dir counts.
    const d = isServer
      ? this.host.getAttribute('dir')
      : (this.host.closest('[dir]')?.getAttribute('dir') ?? document.documentElement.dir);
    if (d === 'rtl' || d === 'ltr') return d;
    return RTL.has(this.lang.toLowerCase().split('-')[0]!) ? 'rtl' : 'ltr';
  }

  /** Number, byte, duration and credit formatting for the resolved language. */
  get f(): Formatter {
    const lang = this.#chain()[0]!;
    if (this.#formatter?.locale !== lang) this.#formatter = new Formatter(lang);
    return this.#formatter;
  }

  /** The text of a term in the element's language (per-element overrides first). */
  term<K extends keyof D & string>(
    key: K,
    ...params: ParamsOf<D[K]> extends undefined ? [] : [ParamsOf<D[K]>]
  ): string {
    const override = this.host.strings?.[key];
    const found =
      override ??
      this.#chain()
        .map((c) => translations.get(c)?.[key])
        .find((t) => t !== undefined) ??
      translations.get('en')?.[key];
    if (found === undefined) return key;
    return typeof found === 'function' ? found(params[0], this.f) : found;
  }

  #chainFor = '';
  #chainCache: string[] = [];
  #chain(): string[] {
    const lang = this.lang;
    if (lang !== this.#chainFor) {
      this.#chainFor = lang;
      this.#chainCache = fallbackChain(lang);
    }
    return this.#chainCache;
  }
}
