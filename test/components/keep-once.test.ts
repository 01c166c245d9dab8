/**
 * One keep per result (README "Results more than one person follows"): two fields holding the same
 * running value (two editors of one document) each keep the job's files when it succeeds; the
 * `assetHandler` is handed the same key and the same unique, descriptive name for each file in
 * both, so a media library that looks the key up first stores each file once and both values end
 * equal. A value that drops kept files (Replace, Remove) says which in `mk-assets-released`.
 * Real HTTP: the proxy and the sandbox behind /mk-model.
 */
import { expect, fixture, html } from '@open-wc/testing';
import { removeFile, writeFile } from '@web/test-runner-commands';
import '../../src/components/model-generator/define.js';
import type { ModelGenerator } from '../../src/components/model-generator/model-generator.js';
import type { ModelValue } from '../../src/components/model-generator/value.js';
import type { AssetInfo, AssetsReleasedDetail } from '../../src/components/shared/result-value.js';
import { advance, until } from '../fixtures/browser.js';

const endpoint = '/mk-model';

/** Files the library wrote (under the repository's ignored tmp/, which the test server serves). */
const written: string[] = [];
after(async () => {
  for (const path of written.splice(0)) await removeFile({ path }).catch(() => undefined);
});

async function base64(blob: Blob): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).split(',')[1] ?? '');
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(blob);
  });
}

/**
 * A media library as a CMS has one: each stored file under a unique key (a second store under the
 * same key is refused, as a unique index refuses it), looked up by key before storing; the files
 * are written where the test server serves them.
 */
function mediaLibrary() {
  const byKey = new Map<string, { id: string; url: string; filename: string }>();
  const stored: { key: string; filename: string; bytes: number }[] = [];
  const calls: AssetInfo[] = [];
  const handler = async (blob: Blob, info: AssetInfo) => {
    calls.push(info);
    const found = byKey.get(info.key);
    if (found) return { id: found.id, url: found.url };
    // The upload takes a while: a second editor's lookup can come meanwhile.
    const path = `../../tmp/keep-once-${crypto.randomUUID()}-${info.filename}`;
    await writeFile({ path, content: await base64(blob), encoding: 'base64' });
    written.push(path);
    const again = byKey.get(info.key);
    if (again) return { id: again.id, url: again.url };
    const doc = { id: `media-${stored.length + 1}`, url: path.replace('../..', ''), filename: info.filename };
    byKey.set(info.key, doc);
    stored.push({ key: info.key, filename: info.filename, bytes: blob.size });
    return { id: doc.id, url: doc.url };
  };
  return { handler, stored, calls };
}

async function mount(handler: (b: Blob, i: AssetInfo) => Promise<{ id?: string; url: string }>, appearance = 'full') {
  return fixture<ModelGenerator>(
    html`<model-generator
      endpoint=${endpoint}
      appearance=${appearance}
      quality="fast"
      mode="prompt"
      .assetHandler=${handler}
    ></model-generator>`,
  );
}

const changed = (el: ModelGenerator) =>
  new Promise<void>((resolve) => el.addEventListener('change', () => resolve(), { once: true }));

describe('one keep per result', function () {
  this.timeout(150_000);

  it('two fields following one job hand the same keys and unique names over: each file is stored once and both values are equal', async () => {
    const library = mediaLibrary();
    const a = await mount(library.handler);
    const b = await mount(library.handler);
    const aChanged = changed(a);
    const bChanged = changed(b);
    a.prompt = 'a copper saucepan';
    await a.updateComplete;
    void a.start();
    const running = await until(
      () => (a.result?.status === 'running' && a.result.job ? a.value : undefined),
      20_000,
      "A's running value",
    );
    // The second editor opens the document A saved while the job runs.
    b.value = running;
    await until(
      async () => {
        if (a.result?.asset && b.result?.asset) return true;
        await advance('mk-model', 30_000);
        return false;
      },
      60_000,
      'both fields keep the result',
    );
    await Promise.all([aChanged, bChanged]);

    expect(library.stored.map((s) => s.filename).sort(), 'one copy of each file').to.have.length(3);
    const id = /^model-([0-9a-f]{10})\.glb$/.exec(library.stored.find((s) => s.filename.endsWith('.glb'))!.filename);
    expect(id, 'the GLB is named for what made it and an id').to.not.equal(null);
    expect(library.stored.map((s) => s.filename).sort()).to.deep.equal(
      [`model-${id![1]}.glb`, `reference-${id![1]}.png`, `turntable-${id![1]}.mp4`],
      "a job's files share the id",
    );
    // Each field handed each file over with the same key and name.
    expect(library.calls).to.have.length(6);
    for (const info of library.calls) {
      const same = library.calls.filter((c) => c.key === info.key);
      expect(same, info.key).to.have.length(2);
      expect(same[1]!.filename).to.equal(same[0]!.filename);
    }
    expect(new Set(library.calls.map((c) => c.key)).size).to.equal(3);
    expect(a.value, 'both editors end with the same value').to.equal(b.value);
    const value = JSON.parse(a.value) as ModelValue;
    expect([value.asset!.id, value.turntable!.id, value.poster!.id].sort()).to.deep.equal([
      'media-1',
      'media-2',
      'media-3',
    ]);
  });

  it('names the kept files it no longer holds: a new result in their place, then Remove', async () => {
    const library = mediaLibrary();
    const el = await mount(library.handler, 'field');
    const released: AssetsReleasedDetail[] = [];
    el.addEventListener('mk-assets-released', (e) => released.push((e as CustomEvent<AssetsReleasedDetail>).detail));
    const make = async (prompt: string) => {
      const done = changed(el);
      // As an editor does: Create, or Replace over the saved result.
      const part = el.value ? 'field-replace' : 'field-create';
      (
        await until(
          () => el.shadowRoot!.querySelector<HTMLButtonElement>(`[part~="${part}"]`) ?? undefined,
          5_000,
          part,
        )
      ).click();
      await until(() => el.shadowRoot!.querySelector<HTMLDialogElement>('dialog')?.open, 5_000, 'the dialog');
      await el.updateComplete;
      el.prompt = prompt;
      await el.updateComplete;
      void el.start();
      await until(
        async () => {
          if (el.result?.asset && el.result.prompt === prompt) return true;
          await advance('mk-model', 30_000);
          return false;
        },
        60_000,
        `the model of "${prompt}" kept`,
      );
      await done;
      el.collapse();
      await el.updateComplete;
      return JSON.parse(el.value) as ModelValue;
    };
    const first = await make('a brass lamp');
    expect(released, 'a first result replaces nothing').to.deep.equal([]);
    const second = await make('a pine stool');
    expect(released).to.have.length(1);
    expect(released[0]!.reason).to.equal('replaced');
    expect(released[0]!.assets.map((x) => x.id).sort()).to.deep.equal(
      [first.asset!.id, first.turntable!.id, first.poster!.id].sort(),
    );
    expect(second.asset!.id).to.not.equal(first.asset!.id);
    expect(library.stored[3]!.filename, 'another job, another id').to.not.equal(library.stored[0]!.filename);

    const removed = changed(el);
    (
      await until(
        () => el.shadowRoot!.querySelector<HTMLButtonElement>('[part~="field-remove"]') ?? undefined,
        5_000,
        'Remove',
      )
    ).click();
    await removed;
    expect(el.value).to.equal('');
    expect(released).to.have.length(2);
    expect(released[1]!.reason).to.equal('removed');
    expect(released[1]!.assets.map((x) => x.id).sort()).to.deep.equal(
      [second.asset!.id, second.turntable!.id, second.poster!.id].sort(),
    );

    // A value the site sets and clears again is the site's doing: nothing is released.
    el.value = JSON.stringify(second);
    await el.updateComplete;
    el.value = '';
    await el.updateComplete;
    expect(released).to.have.length(2);
  });
});
