// The playground's result store (src/playground/cache-store.ts) on real Cache Storage: what the
// proxy keeps in the playground survives as bytes with their metadata, ranges read what they name,
// and a stream that breaks leaves nothing under its key.
import { expect } from '@open-wc/testing';
import { cacheResultStore } from '../../src/playground/cache-store.js';
import type { KeptMeta } from '../../src/proxy/keep/result-store.js';

const meta: KeptMeta = {
  type: 'model/gltf-binary',
  name: 'chair.glb',
  owner: 'sealed-owner',
  subject: 'subject-tag',
  created: '2026-11-25T00:00:00.000Z',
};

function streamOf(...parts: (Uint8Array | Error)[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    pull(controller) {
      const next = parts.shift();
      if (next === undefined) controller.close();
      else if (next instanceof Error) controller.error(next);
      else controller.enqueue(next);
    },
  });
}

const text = async (body: ReadableStream<Uint8Array>) =>
  new TextDecoder().decode(await new Response(body).arrayBuffer());

describe('the playground result store (Cache Storage)', () => {
  const store = cacheResultStore('mediakit-test-results');
  afterEach(() => caches.delete('mediakit-test-results'));

  it('keeps the bytes and their metadata; head, get, a range and delete answer as the proxy expects', async () => {
    const enc = new TextEncoder();
    const put = await store.put('key_1', streamOf(enc.encode('hello '), enc.encode('world')), meta);
    expect(put.bytes).to.equal(11);
    expect(await store.head('key_1')).to.deep.equal({ meta, bytes: 11 });
    const whole = (await store.get('key_1'))!;
    expect(whole.bytes).to.equal(11);
    expect(whole.meta).to.deep.equal(meta);
    expect(await text(whole.body)).to.equal('hello world');
    expect(await text((await store.get('key_1', { start: 6, end: 8 }))!.body)).to.equal('wor');
    expect(await text((await store.get('key_1', { start: 6 }))!.body)).to.equal('world');
    await store.delete('key_1');
    expect(await store.head('key_1')).to.equal(null);
    expect(await store.get('key_1')).to.equal(null);
  });

  it('a stream that breaks leaves nothing under the key', async () => {
    let failed = false;
    try {
      await store.put('key_2', streamOf(new TextEncoder().encode('part'), new Error('hung up')), meta);
    } catch {
      failed = true;
    }
    expect(failed).to.equal(true);
    expect(await store.head('key_2')).to.equal(null);
    expect((await (await caches.open('mediakit-test-results')).keys()).length).to.equal(0);
  });

  it('refuses a key that could name something else', async () => {
    let message = '';
    try {
      await store.head('../secret');
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).to.contain('letters, digits');
  });
});
