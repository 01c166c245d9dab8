/**
 * Every shipped language but English (which each element bundles), by lowercase BCP 47 tag. A
 * language loads the first time an element on the page resolves to it; a page in one language
 * loads only that file. Adding a language: its file beside this one (`<tag>.ts`, default-exporting
 * a complete `Translation`) and one line here.
 */
import type { Translation } from './translation.js';

export const languages: Record<string, () => Promise<{ default: Translation }>> = {
  ar: () => import('./ar.js'),
  de: () => import('./de.js'),
  es: () => import('./es.js'),
  fr: () => import('./fr.js'),
  it: () => import('./it.js'),
  ja: () => import('./ja.js'),
  ko: () => import('./ko.js'),
  nl: () => import('./nl.js'),
  pl: () => import('./pl.js'),
  'pt-br': () => import('./pt-BR.js'),
  'zh-hans': () => import('./zh-Hans.js'),
};
