/**
 * `owner` access means owner (issue 31.6): a store that answers its own public URLs
 * (s3ResultStore's `publicBaseUrl`) serves every kept file to anyone with the link, without the
 * proxy's nosniff and CSP, so `createProxy` refuses it with any access but 'public', saying what
 * to change. A store that answers URLs without saying so is never given out under 'owner': the
 * keep answers the proxy's own path, which checks the reader.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { S3Client } from '@aws-sdk/client-s3';
import { createProxy, fileResultStore, type ResultStore } from '../../src/proxy/index.js';
import { s3ResultStore } from '../../src/proxy/keep/s3-result-store.js';
import { makeImage } from '../fixtures/media.js';
import { bearer, SECRET, startStack, type Stack } from './harness.js';
import { imageInit } from './keep-suite.js';

const client = new S3Client({
  endpoint: 'http://127.0.0.1:9',
  region: 'us-east-1',
  forcePathStyle: true,
  credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
});
const base = {
  upstream: 'http://127.0.0.1:9',
  keys: { headshot: 'h3_live_k' },
  secret: SECRET,
  authorize: () => null,
};

describe("'owner' access with a public store", () => {
  it("refuses 'owner' (and an access function) with a store that answers public URLs, and says what to change", () => {
    const store = s3ResultStore({ client, bucket: 'kept', publicBaseUrl: 'https://cdn.example/kept' });
    for (const access of ['owner', () => true] as const) {
      assert.throws(
        () => createProxy({ ...base, results: { store, access } }),
        (err: Error) =>
          err instanceof TypeError &&
          /results\.access/.test(err.message) &&
          /publicBaseUrl/.test(err.message) &&
          /Leave out publicBaseUrl/.test(err.message) &&
          /set results\.access to 'public'/.test(err.message),
      );
    }
    // Either change alone is accepted.
    assert.doesNotThrow(() => createProxy({ ...base, results: { store, access: 'public' } }));
    assert.doesNotThrow(() => createProxy({ ...base, results: { store } }));
    assert.doesNotThrow(() =>
      createProxy({ ...base, results: { store: s3ResultStore({ client, bucket: 'kept' }), access: 'owner' } }),
    );
  });

  describe('a store that answers URLs without saying so', () => {
    let s: Stack;
    let dir: string;
    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'mediakit-kept-public-'));
      const files = fileResultStore({ dir });
      const leaky: ResultStore = {
        ...files,
        put: async (key, body, meta) => ({ ...(await files.put(key, body, meta)), url: `https://cdn.example/${key}` }),
        head: async (key) => {
          const found = await files.head(key);
          return found && { ...found, url: `https://cdn.example/${key}` };
        },
      };
      s = await startStack({ proxy: { results: { store: leaky, access: 'owner' } } });
    });
    after(async () => {
      await s.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it("answers the proxy's own path under 'owner', which only the owner reads", async () => {
      const png = await makeImage({ width: 24, height: 24 });
      const token = await s.login('olga');
      const r = await s.call('/mediakit/results', imageInit(token, png, 'image/png', { 'idempotency-key': 'o1' }));
      assert.equal(r.status, 201);
      const kept = ((await r.json()) as { data: { id: string; url: string } }).data;
      assert.equal(kept.url, `/mediakit/results/${kept.id}/image.png`);
      const again = await s.call('/mediakit/results', imageInit(token, png, 'image/png', { 'idempotency-key': 'o1' }));
      assert.equal(((await again.json()) as { data: { url: string } }).data.url, kept.url);
      assert.equal((await s.call(kept.url)).status, 404, 'a stranger reads nothing');
      const own = await s.call(kept.url, { headers: bearer(token) });
      assert.equal(own.status, 200);
      assert.equal(own.headers.get('x-content-type-options'), 'nosniff');
    });
  });
});
