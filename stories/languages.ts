/**
 * Every language the elements ship (English built in, the others in src/translations/languages.ts),
 * for the toolbar's language switch and each element's `lang` control: read from the translations
 * themselves, so a language added there shows up here.
 */
import { languages } from '../src/translations/languages.js';

/** BCP 47 in its usual casing (`pt-BR`, `zh-Hans`): languages.ts keys them in lowercase. */
const canonical = (tag: string): string => Intl.getCanonicalLocales(tag)[0] ?? tag;

export const LANGUAGES: ReadonlyArray<{ value: string; title: string }> = ['en', ...Object.keys(languages)].map(
  (tag) => {
    const value = canonical(tag);
    return { value, title: new Intl.DisplayNames([value], { type: 'language' }).of(value) ?? value };
  },
);

/** An element's `lang` control: empty (the closest `[lang]`, which the toolbar sets) or one of the languages. */
export const LANG_CONTROL = {
  control: 'select',
  options: ['', ...LANGUAGES.map((l) => l.value)],
  description:
    'Language of the element; empty: the closest `lang` attribute (the toolbar’s language switch sets one around every story), then the page’s.',
} as const;
