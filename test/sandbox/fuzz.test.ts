/**
 * Property-based checks: whatever bytes, headers and fields arrive, the sandbox answers a 4xx
 * error envelope (never a 500, never a hang) and charges nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { startSandbox, type Harness } from './harness.js';

describe('bad input never costs credits and never breaks the sandbox', () => {
  let h: Harness;
  let account: { id: string; keys: Record<string, string> };
  before(async () => {
    h = await startSandbox({ rateLimit: { limit: 100_000 } });
    const created = await h.account(1000);
    account = { id: created.id, keys: { ...created.keys } };
  });
  after(() => h.close());

  const endpoints = [
    { path: '/api/v1/video-to-3d/jobs', key: 'video' },
    { path: '/api/v1/3d/jobs', key: 'generate' },
    { path: '/api/v1/headshot', key: 'headshot' },
    { path: '/api/v1', key: 'imageTools' },
  ];

  async function expectRefusal(r: Response): Promise<void> {
    assert.ok(r.status >= 400 && r.status < 500, `status ${r.status}: ${await r.clone().text()}`);
    const body = (await r.json()) as { error: { code: string; message: string } };
    assert.equal(typeof body.error.code, 'string');
    assert.ok(body.error.message.length > 10);
  }

  it('arbitrary bytes under any content type', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...endpoints),
        fc.constantFrom(
          'application/json',
          'multipart/form-data; boundary=zz',
          'multipart/form-data',
          'text/plain',
          'application/xml',
          '',
        ),
        fc.uint8Array({ maxLength: 2048 }),
        async (ep, type, bytes) => {
          const r = await h.call(ep.path, {
            method: 'POST',
            headers: { authorization: `Bearer ${account.keys[ep.key]}`, ...(type ? { 'content-type': type } : {}) },
            body: bytes,
          });
          await expectRefusal(r);
        },
      ),
      { numRuns: 120 },
    );
    assert.equal((await h.ledger(account.id)).entries.length, 0);
  });

  it('arbitrary JSON values in every documented field', async () => {
    const value = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.oneof(fc.integer({ min: -2, max: 8 }), fc.string({ maxLength: 8 })), { maxLength: 8 }),
      fc.dictionary(fc.string({ maxLength: 5 }), fc.integer()),
    );
    const fields = [
      'mode',
      'images',
      'prompt',
      'quality',
      'remove_background',
      'seed',
      'image_base64',
      'image_url',
      'style',
      'variants',
      'size',
      'format',
      'bg_color',
      'crop',
      'operation',
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...endpoints.slice(1)),
        fc.dictionary(fc.constantFrom(...fields), value, { maxKeys: 6 }),
        async (ep, body) => {
          // Never send a real-looking image: every such body must be refused.
          if (typeof body['image_base64'] === 'string' && body['image_base64'].length > 20) delete body['image_base64'];
          const r = await h.call(ep.path, {
            method: 'POST',
            headers: { authorization: `Bearer ${account.keys[ep.key]}`, 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
          await expectRefusal(r);
        },
      ),
      { numRuns: 200 },
    );
    assert.equal((await h.ledger(account.id)).entries.length, 0);
  });

  it('arbitrary paths, methods and header values', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.webPath(),
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'),
        fc.string({ maxLength: 60 }).filter((s) => /^[\x20-\x7e]*$/.test(s)),
        async (path, method, headerValue) => {
          const r = await h.call(path.startsWith('/') ? path : '/' + path, {
            method,
            headers: { authorization: headerValue, 'x-api-key': headerValue, 'idempotency-key': headerValue },
          });
          assert.ok(r.status < 500, `${method} ${path} -> ${r.status}`);
          await r.arrayBuffer();
        },
      ),
      { numRuns: 200 },
    );
  });
});
