/**
 * Every shipped language is complete: the same keys as the English dictionaries of all seven
 * elements, nothing missing, nothing extra, and every term with parameters gives a sentence (no
 * `undefined`, `NaN` or `[object …]`) for the same parameters English takes. The elements' own
 * tests check each language in place (test/components/shared/product-element-contract.ts).
 */
import { expect } from '@open-wc/testing';
import { bgStrings } from '../../src/components/bg-tool/strings.js';
import { badgeStrings } from '../../src/components/credit-badge/strings.js';
import { headshotStrings } from '../../src/components/headshot-studio/strings.js';
import { modelGeneratorStrings } from '../../src/components/model-generator/strings.js';
import { errorStrings } from '../../src/components/shared/error-strings.js';
import { fieldStrings } from '../../src/components/shared/field-strings.js';
import { jobStrings } from '../../src/components/shared/job-error.js';
import { photoFitStrings } from '../../src/components/shared/photo-fit-strings.js';
import { sharedStrings } from '../../src/components/shared/strings.js';
import { fitStrings } from '../../src/components/video-to-3d-uploader/fit-strings.js';
import { uploaderStrings } from '../../src/components/video-to-3d-uploader/strings.js';
import { viewStrings } from '../../src/components/video-to-3d-uploader/view-strings.js';
import { Formatter } from '../../src/internal/format.js';
import { fallbackChain } from '../../src/components/shared/localize.js';
import { languages } from '../../src/translations/languages.js';
import { viewerStrings } from '../../src/viewers/shared/viewer-strings.js';

const english: Record<string, unknown> = {
  ...sharedStrings,
  ...errorStrings,
  ...fieldStrings,
  ...jobStrings,
  ...bgStrings,
  ...badgeStrings,
  ...headshotStrings,
  ...modelGeneratorStrings,
  ...photoFitStrings,
  ...uploaderStrings,
  ...viewStrings,
  ...fitStrings,
  ...viewerStrings,
};

/** Parameters that suit any term: every name is a small number that also reads as text. */
const params = new Proxy({} as Record<string, unknown>, {
  get: (_, key) => (key === Symbol.toPrimitive ? undefined : key === 'views' ? ['front', 'back'] : 2),
});

describe('shipped languages', () => {
  it('ships at least the twelve languages the README lists', () => {
    expect(['en', ...Object.keys(languages)].sort()).to.include.members([
      'ar',
      'de',
      'en',
      'es',
      'fr',
      'it',
      'ja',
      'ko',
      'nl',
      'pl',
      'pt-br',
      'zh-hans',
    ]);
  });

  for (const [code, load] of Object.entries(languages)) {
    it(`${code}: every key of every element, none extra, and every term reads`, async () => {
      const dictionary = (await load()).default as Record<string, unknown>;
      expect(
        Object.keys(dictionary).filter((k) => !(k in english)),
        'extra keys',
      ).to.deep.equal([]);
      expect(
        Object.keys(english).filter((k) => !(k in dictionary)),
        'missing keys',
      ).to.deep.equal([]);
      const f = new Formatter(code);
      const en = new Formatter('en');
      for (const [key, term] of Object.entries(dictionary)) {
        const source = english[key];
        expect(typeof term, key).to.equal(typeof source);
        if (typeof term !== 'function' || typeof source !== 'function') {
          expect((term as string).trim().length, key).to.be.greaterThan(0);
          continue;
        }
        let sample: string;
        try {
          sample = (source as (p: unknown, f: Formatter) => string)(params, en);
        } catch {
          continue; // English itself needs parameters of another shape: nothing to compare.
        }
        const text = (term as (p: unknown, f: Formatter) => string)(params, f);
        expect(text, key).to.be.a('string');
        expect(text.trim().length, key).to.be.greaterThan(0);
        expect(text, key).to.not.match(/undefined|NaN|\[object /);
        expect(sample.length).to.be.greaterThan(0);
      }
    });
  }
});

describe('language fallback', () => {
  it('goes from a region to its language, by script to a sibling, and never from Traditional to Simplified Chinese', () => {
    expect(fallbackChain('de-AT')).to.deep.equal(['de-at', 'de', 'de-latn', 'en']);
    expect(fallbackChain('zh-CN')).to.include('zh-hans');
    expect(fallbackChain('zh-TW')).to.not.include('zh-hans');
    expect(fallbackChain('pt-PT')).to.include('pt-br');
    expect(fallbackChain('not a tag!')).to.deep.equal(['not a tag!', 'en']);
  });
});
