/**
 * A saved value never makes the browser read what it should not (README "Security model"). A CMS
 * stores the value an author wrote; an admin opens the edit form with the admin's cookies. A value
 * whose kept file is one of the site's own admin pages must not make the element read that page
 * with those cookies, nor turn what it answered into the element's `file` or the form's
 * `<name>-file`, which the author would get back on Save. Real HTTP: the test server's admin pages
 * (test/fixtures/admin-pages.ts) answer `/admin/private.json` only with the admin's cookie and
 * record every request they get.
 */
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/components/bg-tool/define.js';
import '../../src/components/headshot-studio/define.js';
import type { BgTool } from '../../src/components/bg-tool/bg-tool.js';
import type { HeadshotStudio } from '../../src/components/headshot-studio/headshot-studio.js';
import { MediaClient } from '../../src/client/media-client.js';
import { photo, until } from '../fixtures/browser.js';

const endpoint = '/mediakit';
const cut = (el: Element) => el.shadowRoot!;
const q = <T extends Element = HTMLElement>(el: Element, sel: string): T | undefined =>
  cut(el).querySelector<T>(sel) ?? undefined;

interface Hit {
  path: string;
  cookie: boolean;
  dest: string;
}

const hits = async (clear = false): Promise<Hit[]> =>
  ((await (await fetch(`/__test/admin-hits${clear ? '?clear=1' : ''}`)).json()) as { hits: Hit[] }).hits;

/** A request whose answer a script could read (fetch, XHR) that carried the admin's cookie. */
const readWithCookie = (list: Hit[]) => list.filter((h) => h.cookie && h.dest !== 'image');

const bytesOf = async (blob: Blob) => [...new Uint8Array(await blob.arrayBuffer())];
const honestBytes = async () => bytesOf(await (await fetch('/admin/honest.png', { credentials: 'omit' })).blob());

const asset = (url: string, bytes = 70) => ({ url, type: 'image/png', bytes });

const bgValue = (url: string) =>
  JSON.stringify({
    v: 1,
    kind: 'background-removal',
    status: 'succeeded',
    asset: asset(url),
    created: '2026-01-02T03:04:05.000Z',
    width: 1,
    height: 1,
    format: 'png',
    options: { size: 'auto', format: 'png', bgColor: 'none', crop: false },
    charged: 1,
  });

const headshotValue = (url: string) =>
  JSON.stringify({
    v: 1,
    kind: 'headshot',
    status: 'succeeded',
    asset: asset(url),
    created: '2026-01-02T03:04:05.000Z',
    style: 'corporate',
    variants: [{ slot: 0, style: 'corporate', status: 'succeeded', asset: asset(url), width: 1, height: 1 }],
    chosen: 0,
    charged: 2,
  });

type Tag = 'bg-tool' | 'headshot-studio';

/** The README's plain server form: the element named `cutout` in a form, its value set as the server renders it. */
async function openForm(tag: Tag, value: string): Promise<{ form: HTMLFormElement; el: BgTool | HeadshotStudio }> {
  const form = await fixture<HTMLFormElement>(
    tag === 'bg-tool'
      ? html`<form><bg-tool endpoint=${endpoint} name="cutout" keep="none"></bg-tool></form>`
      : html`<form><headshot-studio endpoint=${endpoint} name="cutout" keep="none"></headshot-studio></form>`,
  );
  const el = form.querySelector<BgTool | HeadshotStudio>(tag)!;
  el.value = value;
  return { form, el };
}

/** Waits until the element has asked for its kept file (`path`) and settled on what it got. */
async function settled(el: BgTool | HeadshotStudio, path: string): Promise<Hit[]> {
  const seen = await until(
    async () => {
      const list = (await hits()).filter((h) => h.path === path && h.dest !== 'image');
      return list.length ? list : undefined;
    },
    10_000,
    `a read of ${path}`,
  ).catch(async (e) => {
    throw new Error(`${e.message}: ${JSON.stringify(await hits())} ${el.value.slice(0, 60)} ${el.status}`);
  });
  await new Promise((r) => setTimeout(r, 400));
  await el.updateComplete;
  return seen;
}

for (const tag of ['bg-tool', 'headshot-studio'] as const) {
  describe(`<${tag}>: a saved value never makes the browser read what it should not`, function () {
    this.timeout(60_000);
    beforeEach(async () => {
      document.cookie = 'mk_admin=1; path=/';
      await hits(true);
    });
    afterEach(() => {
      document.cookie = 'mk_admin=; path=/; max-age=0';
    });

    it("a kept file that is the site's admin page is read without the admin's cookies, and is no `file` and no form file", async () => {
      const { form, el } = await openForm(tag, bgOrHeadshot(tag, '/admin/private.json'));
      await settled(el, '/admin/private.json');
      const all = await hits();
      expect(readWithCookie(all), 'requests a script could read that carried the cookie').to.deep.equal([]);
      expect(el.file, '`file`').to.equal(null);
      const data = new FormData(form);
      expect(data.has('cutout-file'), 'the form posts no file').to.equal(false);
      expect(data.get('cutout'), 'the value itself is still the form value').to.equal(el.value);
      // The picture is shown by its URL: an <img>, whose bytes no script of the page reads.
      const img = await until(
        () => q<HTMLImageElement>(el, 'img[src$="/admin/private.json"]'),
        5_000,
        'the picture by URL',
      );
      expect(img.getAttribute('src')).to.equal('/admin/private.json');
    });

    it('bytes that are not the image the value declares are no `file` and no form file', async () => {
      const { form, el } = await openForm(tag, bgOrHeadshot(tag, '/admin/fake.png'));
      const seen = await settled(el, '/admin/fake.png');
      expect(
        seen.every((h) => !h.cookie),
        'read without cookies',
      ).to.equal(true);
      expect(el.file).to.equal(null);
      expect(new FormData(form).has('cutout-file')).to.equal(false);
    });

    it('an honest kept PNG still becomes the `file` and the form file, read without cookies', async () => {
      const { form, el } = await openForm(tag, bgOrHeadshot(tag, '/admin/honest.png'));
      const seen = await settled(el, '/admin/honest.png');
      expect(
        seen.every((h) => !h.cookie),
        'read without cookies',
      ).to.equal(true);
      const file = await until(() => el.file ?? undefined, 5_000, 'the file');
      expect(await bytesOf(file)).to.deep.equal(await honestBytes());
      expect(file.type).to.equal('image/png');
      const posted = new FormData(form).get('cutout-file') as File;
      expect(posted.type).to.equal('image/png');
      expect(await bytesOf(posted)).to.deep.equal(await honestBytes());
    });

    it("a PNG kept in the endpoint's own result store becomes the `file`", async () => {
      const png = await photo(8, 8, 'image/png');
      const kept = await MediaClient.for(endpoint).keep(
        { blob: png, name: 'kept.png' },
        { idempotencyKey: crypto.randomUUID() },
      );
      expect(kept.url).to.match(new RegExp(`^${endpoint}/results/`));
      const { form, el } = await openForm(tag, bgOrHeadshot(tag, kept.url));
      const file = await until(() => el.file ?? undefined, 10_000, 'the file');
      expect(await bytesOf(file)).to.deep.equal(await bytesOf(png));
      expect(((new FormData(form).get('cutout-file') as File) ?? new File([], '')).size).to.equal(png.size);
    });
  });
}

function bgOrHeadshot(tag: Tag, url: string): string {
  return tag === 'bg-tool' ? bgValue(url) : headshotValue(url);
}
