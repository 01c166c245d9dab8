/**
 * Server rendering: every browser entry imports in Node without throwing, and every tag that
 * src/define.ts registers renders its idle state with @lit-labs/ssr as declarative shadow DOM
 * (what a server puts in the page before any script runs). The packed package is checked the same
 * way, and hydrated in Chromium, by scripts/apps.mjs (test/apps/ssr, test/apps/nextjs).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { render } from '@lit-labs/ssr';
import { collectResult } from '@lit-labs/ssr/lib/render-result.js';
import { html as staticHtml, unsafeStatic } from 'lit/static-html.js';

const src = new URL('../../src/', import.meta.url);
const tags = [
  ...readFileSync(new URL('define.ts', src), 'utf8').matchAll(/\/([a-z0-9]+(?:-[a-z0-9]+)+)\/define\.js'/g),
].map((m) => m[1]!);

describe('browser entries in Node', () => {
  const entries = [
    'index.ts',
    'define.ts',
    ...readdirSync(new URL('elements/', src)).map((f) => `elements/${f}`),
    'react/index.ts',
  ];
  for (const entry of entries) {
    it(`imports ${entry} without throwing`, async () => {
      await import(new URL(entry, src).href);
    });
  }
});

describe('idle state rendered on the server', () => {
  it('finds the tags src/define.ts registers', () => assert.ok(tags.length >= 7, tags.join(' ')));
  for (const tag of tags) {
    it(`<${tag}> renders as declarative shadow DOM`, async () => {
      await import(new URL('define.ts', src).href);
      const t = unsafeStatic(tag);
      const out = await collectResult(render(staticHtml`<${t} endpoint="/mediakit"></${t}>`));
      assert.match(out, new RegExp(`<${tag}[^>]*><template shadowroot(mode)?="open"`));
      assert.ok(out.length > 1000, `only ${out.length} characters`);
    });
  }
});
