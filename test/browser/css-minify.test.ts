/**
 * The build makes the CSS in every style module smaller (scripts/minify-css.mjs: a site's bundler
 * never minifies CSS inside a template literal). Here Chromium parses each sheet as written and as
 * minified, and the rules it reads back must be the same, rule for rule: a minification that changed
 * a selector, a value or a media query fails. Every style module of the package is listed (the
 * build minifies each module whose source has a css`` literal; a new one belongs here).
 */
import { expect } from '@open-wc/testing';
import { CSSResult } from 'lit';
// @ts-expect-error: a plain .mjs module of the build scripts, with no types.
import { minifyCss } from '../../scripts/minify-css.mjs';
import * as bgTool from '../../src/components/bg-tool/bg-tool.styles.js';
import * as bgViews from '../../src/components/bg-tool/image-views.styles.js';
import * as badge from '../../src/components/credit-badge/credit-badge.styles.js';
import * as camera from '../../src/components/headshot-studio/camera.styles.js';
import * as headshot from '../../src/components/headshot-studio/headshot-studio.styles.js';
import * as headshotResults from '../../src/components/headshot-studio/results-view.styles.js';
import * as jobView from '../../src/components/model-generator/job-view.styles.js';
import * as model from '../../src/components/model-generator/model-generator.styles.js';
import * as base from '../../src/components/shared/base.styles.js';
import * as errorPanel from '../../src/components/shared/error-panel.styles.js';
import * as field from '../../src/components/shared/field.styles.js';
import * as card from '../../src/components/shared/styles.js';
import * as uploader from '../../src/components/video-to-3d-uploader/video-to-3d-uploader.styles.js';
import * as uploaderViews from '../../src/components/video-to-3d-uploader/views.styles.js';
import * as viewer from '../../src/viewers/shared/viewer.styles.js';

const modules = {
  bgTool,
  bgViews,
  badge,
  camera,
  headshot,
  headshotResults,
  jobView,
  model,
  base,
  errorPanel,
  field,
  card,
  uploader,
  uploaderViews,
  viewer,
};

/**
 * The rules Chromium reads from `text`, each serialized by the browser itself. A value with var()
 * keeps its text as written (a line break in a long value included), so runs of whitespace are
 * compared as one space: CSS reads them alike outside strings, and no sheet has such a run in a string.
 */
function parsed(text: string): string[] {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(text);
  return [...sheet.cssRules].map((r) => r.cssText.replace(/\s+/g, ' '));
}

describe('the style sheets, minified by the build', () => {
  const sheets = Object.entries(modules).flatMap(([name, m]) =>
    Object.entries(m)
      .filter(([, v]) => v instanceof CSSResult)
      .map(([key, v]) => [`${name}.${key}`, (v as CSSResult).cssText] as const),
  );

  it('parse to the same rules as written, in every style module', () => {
    expect(sheets.length).to.be.greaterThan(15);
    for (const [name, text] of sheets) {
      const min = minifyCss(text) as string;
      const rules = parsed(text);
      expect(rules.length, `${name}: rules`).to.be.greaterThan(0);
      expect(parsed(min), name).to.deep.equal(rules);
    }
  });

  it('are a quarter smaller', () => {
    const written = sheets.reduce((n, [, t]) => n + t.length, 0);
    const min = sheets.reduce((n, [, t]) => n + (minifyCss(t) as string).length, 0);
    expect(min / written).to.be.below(0.8);
  });
});
