/**
 * <model-generator> in real Chromium against the dev stack on Vite (sandbox clock x10, so a fast
 * job takes ~3-5 s): every request its page makes from load to a model shown, by kind, for one
 * job from a description and one from two photos (goal: at most 25 per completed job, creation
 * included), and whether any three.js / viewer module was fetched before the model was about to
 * show. The page weight of its define module is in elements.ts's table.
 */
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, ensureChromium } from '../../scripts/chromium.mjs';
import { mediakitDev } from '../../src/dev/index.js';

const SPEED = 10;
const GOAL = 25;

interface Counts {
  session: number;
  create: number;
  poll: number;
  glb: number;
  turntable: number;
  reference: number;
  other: number;
  /** three.js or viewer modules requested while the element had no model to show. */
  viewerEarly: number;
}

function counter(page: Page, showing: () => boolean): Counts {
  const n: Counts = { session: 0, create: 0, poll: 0, glb: 0, turntable: 0, reference: 0, other: 0, viewerEarly: 0 };
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (/three|glb-renderer|glb-viewer/.test(path) && !showing()) n.viewerEarly++;
    if (!path.startsWith('/mediakit/')) return;
    if (path === '/mediakit/session') n.session++;
    else if (r.method() === 'POST') n.create++;
    else if (/\/3d\/jobs\/[^/]+$/.test(path)) n.poll++;
    else if (path.endsWith('/model.glb')) n.glb++;
    else if (path.endsWith('/turntable.mp4')) n.turntable++;
    else if (path.endsWith('/reference.png')) n.reference++;
    else n.other++;
  });
  return n;
}

export async function modelGeneratorBench(): Promise<void> {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const server = await createServer({
    configFile: false,
    root,
    logLevel: 'error',
    server: { port: 0, host: '127.0.0.1' },
    plugins: [mediakitDev({ sandbox: { speed: SPEED }, budget: 1_000_000 })],
  });
  await server.listen();
  const url = `http://127.0.0.1:${(server.httpServer!.address() as AddressInfo).port}/demo/model-generator.html`;
  const browser = await chromium.launch({ executablePath: ensureChromium(), args: CHROMIUM_ARGS });
  const rows: Record<string, string | number>[] = [];
  try {
    for (const mode of ['prompt', 'photos'] as const) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 1400 } });
      const page = await context.newPage();
      let showing = false;
      const n = counter(page, () => showing);
      await page.goto(url);
      await page.waitForFunction(() => customElements.get('model-generator') !== undefined);
      const t0 = performance.now();
      await page.evaluate(async (m) => {
        const el = document.querySelector('model-generator')!;
        el.quality = 'fast';
        if (m === 'prompt') (document.querySelector('#prompt') as HTMLButtonElement).click();
        else (document.querySelector('#sample') as HTMLButtonElement).click();
        // No named functions in here: the bench runs through tsx, whose helpers do not exist in the page.
        while (el.status !== 'ready') await new Promise((r) => setTimeout(r, 50));
        void el.start();
      }, mode);
      await page.waitForFunction(() => document.querySelector('model-generator')!.status === 'succeeded', null, {
        timeout: 120_000,
      });
      showing = true;
      await page.waitForFunction(
        () =>
          document.querySelector('model-generator')!.shadowRoot!.querySelector('glb-viewer')?.matches(':state(loaded)'),
        null,
        { timeout: 120_000 },
      );
      // A few seconds of the turntable playing (its range requests count too).
      await page.waitForTimeout(3000);
      const seconds = ((performance.now() - t0) / 1000).toFixed(1);
      const total = n.session + n.create + n.poll + n.glb + n.turntable + n.reference + n.other;
      rows.push({
        job: `${mode} (fast, ~${seconds} s)`,
        session: n.session,
        create: n.create,
        polls: n.poll,
        GLB: n.glb,
        turntable: n.turntable,
        reference: n.reference,
        other: n.other,
        'requests/job': total,
        [`goal ≤ ${GOAL}`]: total <= GOAL ? 'met' : 'MISSED',
        'viewer code before a model': n.viewerEarly,
      });
      await context.close();
    }
    console.log(
      `\n<model-generator>: requests from page load to a model shown (sandbox clock x${SPEED}; 3D jobs polled every 3 s)`,
    );
    console.table(rows);
  } finally {
    await browser.close();
    await server.close();
  }
}
