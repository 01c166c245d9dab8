/**
 * MediaClient in real Chromium over real HTTP: proxy and sandbox mounted in the test server
 * (/mk-short: 2-second session tokens; this file is the only one that uses it, so the sandbox
 * ledger behind it shows exactly this file's charges).
 */
import { expect } from '@open-wc/testing';
import {
  ApiError,
  MediaClient,
  ValidationError,
  type CreditsChangedEvent,
  type UploadProgress,
} from '../../src/index.js';
import { advance, charges, fault, padded, photo, requestsTo, until, video } from '../fixtures/browser.js';

const endpoint = '/mk-short';
const client = () => new MediaClient({ endpoint });

async function rejection(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (err) {
    expect(err).to.be.instanceOf(ApiError);
    return err as ApiError;
  }
  throw new Error('expected the call to be refused');
}

describe('MediaClient: calls', () => {
  it('removes a background and updates the shared credit ledger with the charge', async () => {
    const c = client();
    const changes: CreditsChangedEvent['detail'][] = [];
    c.credits.addEventListener('mk-credits-changed', (e) => changes.push((e as CreditsChangedEvent).detail));
    const before = (await c.budget()).remaining;
    const result = await c.imageTool({ image: await photo(), size: 'preview', bg_color: '#ffffff', format: 'jpg' });
    expect(result.blob.type).to.equal('image/jpeg');
    const bitmap = await createImageBitmap(result.blob);
    expect(bitmap.width * bitmap.height).to.be.at.most(250_000);
    expect(result.credits_charged).to.equal(1);
    expect(result.credits_remaining).to.equal(before - 1);
    expect(c.credits.remaining).to.equal(before - 1);
    expect(changes.at(-1)).to.deep.include({ remaining: before - 1, charged: 1 });
  });

  it('makes headshots, all four or only the slots asked for', async () => {
    const c = client();
    const full = await c.headshots({ image: await photo(), style: 'creative' });
    expect(full.data.variants.map((v) => v.variant)).to.deep.equal([0, 1, 2, 3]);
    expect(full.credits_charged).to.equal(10);
    const one = await c.headshots({ image: await photo(), variants: [2] });
    expect(one.data.variants).to.have.length(1);
    const v = one.data.variants[0]!;
    expect(v.status).to.equal('succeeded');
    if (v.status === 'succeeded') expect(atob(v.image_base64).slice(1, 4)).to.equal('PNG');
    expect(one.credits_charged).to.equal(2);
  });

  it('creates 3D jobs from a prompt and from photos, polls them and downloads the GLB', async () => {
    const c = client();
    const text = await c.createModelJob({ mode: 'text', prompt: 'a small wooden chair', quality: 'fast', seed: 7 });
    expect(text.data.status).to.equal('queued');
    expect(text.data.seed).to.equal(7);
    const image = await c.createModelJob({
      mode: 'image',
      images: [await photo(), await photo(256, 256, 'image/jpeg')],
      quality: 'fast',
    });
    expect(image.data.mode).to.equal('image');
    for (const id of [text.data.job_id, image.data.job_id]) {
      let job = await c.getModelJob(id);
      for (let i = 0; i < 50 && job.status !== 'succeeded' && job.status !== 'failed'; i++) {
        await advance('mk-short', 30_000);
        job = await c.getModelJob(id);
      }
      expect(job.status).to.equal('succeeded');
      expect(job.output!.links_expire_at).to.be.a('string');
      const glb = await c.download(job.output!.model_url);
      expect(new TextDecoder().decode(await glb.slice(0, 4).arrayBuffer())).to.equal('glTF');
    }
    const foreign = await rejection(c.download('https://example.com/x.glb'));
    expect(foreign).to.be.instanceOf(ValidationError);
    // An object URL of this page (the in-page playground answers its files so) is read; one of
    // another origin, or any other scheme, is refused before a request.
    const own = URL.createObjectURL(new Blob(['glTF-bytes']));
    expect(await (await c.download(own)).text()).to.equal('glTF-bytes');
    URL.revokeObjectURL(own);
    for (const url of [
      'blob:https://example.com/0e6f1a2b-0000-4000-8000-000000000000',
      'blob:null/0e6f1a2b-0000-4000-8000-000000000000',
      'blob:javascript:alert(1)',
      'data:model/gltf-binary,glTF',
    ])
      expect(await rejection(c.download(url))).to.be.instanceOf(ValidationError);
  });

  it('uploads a video with progress and polls the reconstruction', async () => {
    const c = client();
    const seen: UploadProgress[] = [];
    const file = padded(await video({ seconds: 2 }), 4 * 1024 * 1024);
    const created = await c.createVideoJob(file, { onProgress: (p) => seen.push(p) });
    expect(created.data.status).to.equal('queued');
    expect(created.credits_charged).to.equal(20);
    expect(seen.length).to.be.greaterThan(0);
    expect(seen.at(-1)!.loaded).to.equal(seen.at(-1)!.total);
    expect(seen.at(-1)!.total).to.be.greaterThan(file.size);
    const job = await c.getVideoJob(created.data.job_id);
    expect(['queued', 'processing']).to.include(job.status);
    expect(job.job_id).to.equal(created.data.job_id);
  });

  it('reports the session budget; the account balance is not shared by default', async () => {
    const c = client();
    const budget = await c.budget();
    expect(budget.limit).to.equal(10_000);
    expect(budget.remaining).to.equal(budget.limit - budget.used);
    const err = await rejection(c.account());
    expect(err.status).to.equal(403);
    expect(err.code).to.equal('forbidden');
  });

  it('charges once for a call repeated with the same Idempotency-Key', async () => {
    const c = client();
    const before = await charges('mk-short', 'createModelJob');
    const key = crypto.randomUUID();
    const a = await c.createModelJob(
      { mode: 'text', prompt: 'a blue teapot', quality: 'fast' },
      { idempotencyKey: key },
    );
    const b = await c.createModelJob(
      { mode: 'text', prompt: 'a blue teapot', quality: 'fast' },
      { idempotencyKey: key },
    );
    expect(b.data.seed).to.equal(a.data.seed);
    expect(await charges('mk-short', 'createModelJob')).to.equal(before + 1);
  });
});

describe('MediaClient: validation before spending', () => {
  const sent = () => requestsTo(`${endpoint}/api/`);

  it('refuses a file over 500 MB by its size without sending a byte', async () => {
    const c = client();
    const head = await video({ seconds: 2 });
    // 501 references to one 1 MiB blob: a 501 MiB file without 501 MiB of memory.
    const mib = new Blob([new Uint8Array(1024 * 1024)]);
    const huge = new File([head, ...Array.from({ length: 501 }, () => mib)], 'huge.mp4', { type: 'video/mp4' });
    const before = sent();
    const err = await rejection(c.createVideoJob(huge));
    expect(err).to.be.instanceOf(ValidationError);
    expect(err.code).to.equal('payload_too_large');
    expect((err as ValidationError).field).to.equal('video_file');
    expect(err.message).to.contain('500 MB');
    expect(sent()).to.equal(before);
  });

  it('refuses a 4-minute video and a 4K video by their metadata', async () => {
    const c = client();
    const before = sent();
    const long = await rejection(c.createVideoJob(await video({ seconds: 240, fps: 1, width: 32, height: 32 })));
    expect(long.code).to.equal('unsupported_media');
    expect(long.message).to.match(/4:00 long.*at most 3 minutes/);
    const uhd = await rejection(c.createVideoJob(await video({ seconds: 1, fps: 1, width: 3840, height: 2160 })));
    expect(uhd.code).to.equal('unsupported_media');
    expect(uhd.message).to.contain('3840x2160');
    // Portrait 1080p and a QuickTime file pass.
    const portrait = await c.createVideoJob(
      await video({ seconds: 1, fps: 2, width: 1080, height: 1920, container: 'mov' }, 'walk.mov'),
    );
    expect(portrait.data.status).to.equal('queued');
    expect(sent()).to.equal(before + 1);
  });

  it('refuses bytes that are not a video or an image, whatever their name says', async () => {
    const c = client();
    const before = sent();
    const fake = new File([new TextEncoder().encode('<html>not a video</html>')], 'walk.mp4', { type: 'video/mp4' });
    expect((await rejection(c.createVideoJob(fake))).code).to.equal('unsupported_media');
    const notImage = new File([new Uint8Array(100)], 'me.png', { type: 'image/png' });
    const err = await rejection(c.headshots({ image: notImage }));
    expect((err as ValidationError).field).to.equal('image');
    const big = new Blob([await photo(), new Uint8Array(13 * 1024 * 1024)], { type: 'image/png' });
    expect((await rejection(c.imageTool({ image: big }))).message).to.contain('12 MB');
    expect(sent()).to.equal(before);
  });

  it('names the field and the fix for bad prompts, slots, styles and options', async () => {
    const c = client();
    const before = sent();
    const image = await photo();
    const cases: [() => Promise<unknown>, string, RegExp][] = [
      [() => c.createModelJob({ mode: 'text', prompt: 'ab' }), 'prompt', /3 to 300/],
      [() => c.createModelJob({ mode: 'text', prompt: 'x'.repeat(301) }), 'prompt', /it has 301/],
      [() => c.createModelJob({ mode: 'image', images: [] }), 'images', /1 to 6/],
      [
        () => c.createModelJob({ mode: 'text', prompt: 'a cup', quality: 'ultra' as never }),
        'quality',
        /fast, standard, high/,
      ],
      [() => c.createModelJob({ mode: 'text', prompt: 'a cup', seed: -1 }), 'seed', /0 to 4294967295/],
      [() => c.headshots({ image: image, variants: [4 as never] }), 'variants', /0, 1, 2 and 3/],
      [() => c.headshots({ image: image, variants: [1, 1] }), 'variants', /twice/],
      [() => c.headshots({ image: image, style: 'casual' as never }), 'style', /corporate/],
      [() => c.imageTool({ image: image, bg_color: 'red' }), 'bg_color', /hex/],
      [() => c.imageTool({ image: 'ftp://x/y.png' }), 'image', /http/],
      [() => c.getVideoJob('../../etc'), 'job_id', /id this session was given/],
    ];
    for (const [p, field, message] of cases) {
      const err = (await rejection(p())) as ValidationError;
      expect(err.field, err.message).to.equal(field);
      expect(err.message).to.match(message);
      expect(err.status).to.equal(400);
    }
    expect(sent()).to.equal(before);
  });
});

describe('MediaClient: sessions and retries', () => {
  it('fetches one session for many concurrent calls', async () => {
    const c = client();
    const before = requestsTo(`${endpoint}/session`);
    await Promise.all([c.budget(), c.budget(), c.budget(), c.session()]);
    // One POST for the token plus the three budget GETs.
    expect(requestsTo(`${endpoint}/session`) - before).to.equal(4);
  });

  it('refreshes an expired token without the caller noticing', async () => {
    let minted = 0;
    const c = new MediaClient({
      endpoint,
      session: async () => {
        minted++;
        const r = await fetch(`${endpoint}/session`, { method: 'POST' });
        return ((await r.json()) as { data: { token: string } }).data.token;
      },
    });
    await c.budget();
    await new Promise((r) => setTimeout(r, 2_200)); // the 2-second token is now expired
    const budget = await c.budget();
    expect(budget.limit).to.equal(10_000);
    expect(minted).to.equal(2);
  });

  it('answers a refused token by fetching a new one once, then reports the 401', async () => {
    const foreign = (
      (await (await fetch('/mediakit/session', { method: 'POST' })).json()) as { data: { token: string } }
    ).data.token;
    const good = (
      (await (await fetch(`${endpoint}/session`, { method: 'POST' })).json()) as { data: { token: string } }
    ).data.token;
    const tokens = [foreign, good];
    const recovering = new MediaClient({ endpoint, session: async () => tokens.shift()! });
    expect((await recovering.budget()).limit).to.equal(10_000);
    expect(tokens).to.have.length(0);

    let asked = 0;
    const hopeless = new MediaClient({ endpoint, session: async () => (asked++, foreign) });
    const err = await rejection(hopeless.budget());
    expect(err.status).to.equal(401);
    expect(asked).to.equal(2);
  });

  it('waits out a 429 with Retry-After and charges once', async () => {
    const c = client();
    await c.session();
    const before = await charges('mk-short', 'imageTool');
    await fault('mk-short', 'rate_limit');
    const t0 = performance.now();
    const result = await c.imageTool({ image: await photo(), size: 'preview' });
    expect(performance.now() - t0).to.be.at.least(900, 'the Retry-After second was waited');
    expect(result.credits_charged).to.equal(1);
    expect(await charges('mk-short', 'imageTool')).to.equal(before + 1);
  });

  it('reports a 429 whose Retry-After is longer than it may wait', async () => {
    const c = new MediaClient({ endpoint, maxRetryAfterSeconds: 0 });
    await fault('mk-short', 'rate_limit');
    const err = await rejection(c.imageTool({ image: await photo(), size: 'preview' }));
    expect(err.status).to.equal(429);
    expect(err.retryAfter).to.equal(1);
  });

  it('reports a server that cannot be reached as a network error', async () => {
    const c = new MediaClient({ endpoint: 'http://127.0.0.1:9/mediakit', attempts: 2 });
    const err = await rejection(c.budget());
    expect(err.status).to.equal(0);
    expect(err.code).to.equal('network_error');
  });

  it('charges nothing for an upload cancelled mid-way', async () => {
    const c = client();
    const budget = (await c.budget()).remaining;
    const before = await charges('mk-short');
    const controller = new AbortController();
    const file = padded(await video({ seconds: 2 }), 64 * 1024 * 1024);
    let sentAtAbort = 0;
    let total = 0;
    const err = await c
      .createVideoJob(file, {
        signal: controller.signal,
        onProgress: (p) => {
          if (p.loaded > 0 && p.loaded < p.total && !controller.signal.aborted) {
            sentAtAbort = p.loaded;
            total = p.total;
            controller.abort();
          }
        },
      })
      .catch((e: unknown) => e);
    expect((err as DOMException).name).to.equal('AbortError');
    expect(sentAtAbort).to.be.greaterThan(0).and.lessThan(total);
    // The proxy releases the reservation once it sees the cut connection (later on a busy machine).
    await until(async () => (await c.budget()).remaining === budget, 10_000, 'the reservation released').catch(
      async () => {
        throw new Error(`the budget stayed at ${(await c.budget()).remaining}, expected ${budget}`);
      },
    );
    expect(await charges('mk-short')).to.equal(before);
  });
});
