/**
 * What a page downloads before anything happens, as a visitor's browser fetches it: the four
 * product elements shown idle fetch none of the code that only a value, an input or a result needs
 * (the value checks, sending, the input checks, keeping); the first value set fetches the checks, and the element shows it. The
 * weight itself, and what the static graph holds, is held by `npm run size` (scripts/size.mjs);
 * this test names what must wait for the user, past what loads when the browser is idle.
 */
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/components/bg-tool/define.js';
import '../../src/components/headshot-studio/define.js';
import '../../src/components/model-generator/define.js';
import '../../src/components/video-to-3d-uploader/define.js';
import { until } from '../fixtures/browser.js';

/** The modules of this page fetched so far (paths under /src and /node_modules). */
const fetched = () =>
  performance
    .getEntriesByType('resource')
    .map((e) => new URL(e.name).pathname)
    .filter((p) => p.startsWith('/src/') || p.includes('/node_modules/'));

const LATER = [
  '/src/components/shared/result-checks.ts',
  '/src/components/shared/result-keep.ts',
  '/src/components/bg-tool/run.ts',
  '/src/components/bg-tool/value.ts',
  '/src/components/headshot-studio/value.ts',
  '/src/components/headshot-studio/photo-checks.ts',
  '/src/components/headshot-studio/batch-slots.ts',
  '/src/components/model-generator/value-check.ts',
  '/src/components/video-to-3d-uploader/check-run.ts',
  '/src/client/keep-call.ts',
];

describe('first load', () => {
  it('four idle elements fetch none of what waits for a value, an input or a result; the first value set fetches the checks and is shown', async () => {
    const wrap = await fixture<HTMLDivElement>(html`<div>
      <bg-tool endpoint="/mediakit"></bg-tool>
      <headshot-studio endpoint="/mediakit"></headshot-studio>
      <model-generator endpoint="/mediakit"></model-generator>
      <video-to-3d-uploader endpoint="/mediakit" keep="none"></video-to-3d-uploader>
    </div>`);
    const els = [...wrap.children] as (HTMLElement & {
      updateComplete: Promise<boolean>;
      status: string;
      value: string;
    })[];
    await Promise.all(els.map((el) => el.updateComplete));
    // The idle card is drawn (its limits line), and what loads after idle has had its chance to load.
    for (const el of els) expect(el.shadowRoot!.querySelector('.items-line'), el.localName).to.not.equal(null);
    await new Promise((r) => setTimeout(r, 1500));
    const early = fetched();
    expect(early.length, 'the page fetched its modules').to.be.greaterThan(20);
    for (const module of LATER)
      expect(
        early.filter((p) => p.includes(module)),
        `${module} fetched by idle elements`,
      ).to.deep.equal([]);

    // A value set from outside: it reads back at once, its checks load, and it is shown.
    const uploader = els[3]!;
    const value = JSON.stringify({
      v: 1,
      kind: 'scene',
      status: 'succeeded',
      asset: { url: '/kept/scene.ply', type: 'application/octet-stream', bytes: 3 },
      created: '2026-01-02T03:04:05.000Z',
      name: 'walk.mp4',
    });
    uploader.value = value;
    expect(uploader.value).to.equal(value);
    await until(
      () => fetched().some((p) => p.includes('/src/components/shared/result-checks.ts')),
      10_000,
      'the checks',
    );
    await until(() => uploader.status === 'succeeded', 10_000, 'the value shown');
    expect(uploader.value).to.equal(value);
  });
});
