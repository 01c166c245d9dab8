/**
 * The type of one language's strings for all seven elements: every key of every English
 * dictionary, with the same parameters. A language file (`<lang>.ts` beside this one) imports
 * only this type and default-exports a complete `Translation`; a missing or extra key is a type
 * error, and test/components/translations.test.ts fails on it too.
 *
 * The English dictionaries belong to the elements, which sit above this folder: they name their
 * types in `EnglishDictionaries` (declaration merging, src/components/shared/english.ts), so this
 * file imports nothing of theirs.
 */
import type { Formatter } from '../internal/format.js';

/** Every English dictionary's type, by a name of its own; filled in by src/components/shared/english.ts. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface EnglishDictionaries {}

/**
 * Each term of a dictionary: text where English has text, else a function of the same parameters
 * that also gets the locale's formatter (even where English needs none: "40 %" is "40%" or
 * "%40" elsewhere).
 */
type Terms<D> = {
  [K in keyof D]: D[K] extends string
    ? string
    : D[K] extends (p: infer P, ...rest: never[]) => string
      ? (p: P, f: Formatter) => string
      : never;
};

/** All the dictionaries as one (the intersection of the registry's types). */
type AllOf<U> = (U extends unknown ? (u: U) => void : never) extends (u: infer I) => void ? I : never;

export type Translation = Terms<AllOf<EnglishDictionaries[keyof EnglishDictionaries]>>;
