/**
 * Links from an answer are only http(s) or same-origin (issue 19, item 7). The endpoint here,
 * /mk-hostile (web-test-runner.config.mjs), is the real /mediakit stack with every `url` and `*_url`
 * of its JSON answers turned into a `javascript:` link, as an endpoint that is not our proxy could
 * send. No element may put such a URL in an href, src, poster or download link, nor in its value
 * (the kept result's answer is refused, so the value keeps `asset: null`).
 */
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/components/video-to-3d-uploader/define.js';
import '../../src/components/model-generator/define.js';
import type { VideoTo3dUploader } from '../../src/components/video-to-3d-uploader/video-to-3d-uploader.js';
import type { ModelGenerator } from '../../src/components/model-generator/model-generator.js';
import { safeUrl } from '../../src/internal/safe-url.js';
import { advance, until, video } from '../fixtures/browser.js';

const endpoint = '/mk-hostile';
// The hostile links call alert(document.domain): record it instead of blocking the page.
const alerts: string[] = [];
window.alert = (message?: unknown) => void alerts.push(String(message));

/** Waits until keeping the result was refused (its retry button shows), so nothing is still on its way. */
async function keepRefused(el: HTMLElement): Promise<void> {
  await until(() => el.shadowRoot!.querySelector('[part~="keep-retry"]'), 20_000, 'the kept link refused');
  const result = (el as unknown as { result: { asset: unknown } | null }).result;
  expect(result, 'the value is there').to.not.equal(null);
  expect(result!.asset, 'the value names no file').to.equal(null);
}

/** Every URL-bearing attribute in an element's shadow tree (and its viewers'), that is not a safe link. */
function unsafeLinks(el: Element): string[] {
  const found: string[] = [];
  const walk = (root: ParentNode) => {
    for (const node of root.querySelectorAll('*')) {
      for (const name of ['href', 'src', 'poster', 'action', 'formaction']) {
        const v = node.getAttribute(name);
        if (v !== null && safeUrl(v) === undefined) found.push(`${node.localName}[${name}=${v}]`);
      }
      if (node.shadowRoot) walk(node.shadowRoot);
    }
  };
  walk(el.shadowRoot!);
  return found;
}

async function reach(el: { status: string }, status: string, ms = 60_000): Promise<void> {
  await until(
    async () => {
      if (el.status === status) return true;
      if (el.status === 'queued' || el.status === 'processing') await advance('mk-links', 30_000);
      return false;
    },
    ms,
    `status ${status} (now ${el.status})`,
  );
}

describe('safeUrl', () => {
  it('passes http(s), same-origin paths, our own blob: URLs and raster data: images', () => {
    const blob = URL.createObjectURL(new Blob(['x']));
    for (const ok of [
      'https://cdn.example/a.glb',
      'http://127.0.0.1/x',
      '/mediakit/files/abc',
      'files/abc?x=1',
      blob,
      'data:image/png;base64,AAAA',
    ]) {
      expect(safeUrl(ok), ok).to.equal(ok);
    }
    URL.revokeObjectURL(blob);
  });
  it('refuses script, other schemes, foreign blobs, markup data and URLs with control characters', () => {
    for (const bad of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      ' javascript:alert(1)',
      'java\tscript:alert(1)',
      'vbscript:msgbox(1)',
      'data:text/html,<script>alert(1)</script>',
      'data:image/svg+xml,<svg onload=alert(1)>',
      'blob:https://evil.example/0b8e',
      'file:///etc/passwd',
      '/ok\n/but-split',
      '',
      undefined,
      null,
    ]) {
      expect(safeUrl(bad as string), String(bad)).to.equal(undefined);
    }
  });
});

describe('links from a hostile answer are never rendered', function () {
  this.timeout(120_000);

  it('<video-to-3d-uploader>: a javascript: ply_url or archive_url gives no download link', async () => {
    const el = await fixture<VideoTo3dUploader>(
      html`<video-to-3d-uploader endpoint=${endpoint}></video-to-3d-uploader>`,
    );
    el.selectFile(await video({ seconds: 2, width: 96, height: 64 }));
    await until(() => el.status === 'ready', 20_000, 'the check');
    await el.updateComplete;
    el.shadowRoot!.querySelector<HTMLButtonElement>('[part~="primary-button"]')!.click();
    await reach(el, 'succeeded');
    await keepRefused(el);
    await el.updateComplete;
    // The poll answer really carried the script links (the route works), and none is on screen.
    const job = (await (await fetch(`${endpoint}/__probe`)).json()) as { rewritten: number };
    expect(job.rewritten, 'URLs the hostile endpoint rewrote').to.be.greaterThan(0);
    expect(el.shadowRoot!.querySelector('[part~="download-ply"]'), 'no PLY link').to.equal(null);
    expect(el.shadowRoot!.querySelector('[part~="download-zip"]'), 'no zip link').to.equal(null);
    expect(unsafeLinks(el)).to.deep.equal([]);
    expect(alerts, 'no script from the answer ran').to.deep.equal([]);
  });

  it('<model-generator>: javascript: model, turntable and reference URLs are not rendered', async () => {
    const el = await fixture<ModelGenerator>(
      html`<model-generator endpoint=${endpoint} quality="fast"></model-generator>`,
    );
    el.mode = 'prompt';
    el.prompt = 'a small red teapot';
    await el.updateComplete;
    void el.start();
    await reach(el, 'succeeded');
    await keepRefused(el);
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[part~="download"]'), 'no download link').to.equal(null);
    expect(el.shadowRoot!.querySelector('[part~="turntable"]'), 'no turntable video').to.equal(null);
    expect(unsafeLinks(el)).to.deep.equal([]);
    expect(alerts, 'no script from the answer ran').to.deep.equal([]);
  });
});
