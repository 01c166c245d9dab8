/**
 * Properties (fast-check): arbitrary request paths only ever reach allowlisted upstream URLs; any
 * change to a token, a handle or a ticket is refused; concurrent reservations never exceed a budget.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ROUTES, JOB_ID_PATTERN } from '../../src/api/index.js';
import { createProxy, MemoryStore } from '../../src/proxy/index.js';
import { SECRET } from './harness.js';

const KEYS = { video: 'v3_live_k', headshot: 'hs_live_k', generate: 'g3_live_k', imageTools: 'ut_live_k' };
const UPSTREAM_ID = 'job_' + 'u'.repeat(32);

/** A proxy over a stub upstream that records every URL it is asked for. */
function stubbed(
  answer: (url: URL) => Response = () =>
    Response.json({ error: { code: 'not_found', message: 'No such thing here.' } }, { status: 404 }),
) {
  const seen: { method: string; url: URL }[] = [];
  const proxy = createProxy({
    upstream: async (request) => {
      const url = new URL(request.url);
      seen.push({ method: request.method, url });
      await request.body?.cancel();
      return answer(url);
    },
    keys: KEYS,
    secret: SECRET,
    authorize: () => ({ subject: 'prop', budget: 1_000_000 }),
    rateLimits: { create: { limit: 1e9, windowSeconds: 60 }, poll: { limit: 1e9, windowSeconds: 60 } },
    log: () => {},
  });
  return { proxy, seen };
}

/** Matches an upstream URL against the route table (job ids by the upstream pattern). */
function allowlisted(url: URL): boolean {
  if (url.search !== '') return false;
  return ROUTES.some((r) => {
    const pat = r.pattern.split('/');
    const parts = url.pathname.split('/');
    return (
      pat.length === parts.length &&
      pat.every((p, i) => (p === '{job_id}' ? JOB_ID_PATTERN.test(parts[i]!) : p === parts[i]))
    );
  });
}

async function handleFor(proxy: ReturnType<typeof createProxy>, token: string): Promise<string> {
  const r = await proxy.fetch(
    new Request('http://site/mediakit/api/v1/3d/jobs', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{"mode":"text","prompt":"cup"}',
    }),
  );
  return ((await r.json()) as { data: { job_id: string } }).data.job_id;
}

describe('proxy properties', () => {
  it('sends arbitrary paths only to allowlisted upstream URLs, without browser query parameters', async () => {
    const { proxy, seen } = stubbed((url) =>
      url.pathname === '/api/v1/3d/jobs'
        ? Response.json(
            { data: { job_id: UPSTREAM_ID, status: 'queued' }, credits_charged: 2, credits_remaining: 1 },
            { status: 202, headers: { 'x-credits-charged': '2' } },
          )
        : Response.json({ error: { code: 'not_found', message: 'No such job here.' } }, { status: 404 }),
    );
    const token = await proxy.mintToken({
      subject: 'prop',
      capabilities: ['video', 'headshot', 'generate', 'imageTools'],
      budget: 1e6,
    });
    const handle = await handleFor(proxy, token);
    const segment = fc.oneof(
      fc.constantFrom(
        'api',
        'v1',
        'app',
        'demo',
        '3d',
        'jobs',
        'video-to-3d',
        'headshot',
        'account',
        'download',
        'model',
        'turntable',
        'reference',
        'session',
        'files',
        '__sandbox',
        '__provider',
      ),
      fc.constantFrom(
        '..',
        '.',
        '',
        '%2f',
        '%2F..',
        '%5c',
        '\\',
        '%2e%2e',
        '%00',
        handle,
        handle + 'x',
        UPSTREAM_ID,
        'a'.repeat(50),
      ),
      fc.string({ maxLength: 12 }),
    );
    const random = fc.array(segment, { minLength: 1, maxLength: 8 }).map((s) => s.join('/'));
    // Real route shapes with real, altered and foreign ids, and junk around them.
    const routeShaped = fc
      .tuple(
        fc.constantFrom(...ROUTES.map((r) => r.pattern.slice(1))),
        fc.constantFrom(handle, handle, handle, handle.slice(1), UPSTREAM_ID, '..', '%2e%2e'),
        fc.constantFrom('', '', '', '/', '/..', '/x', '%2f..'),
      )
      .map(([pattern, id, tail]) => pattern.replace('{job_id}', id) + tail);
    const path = fc.oneof({ arbitrary: random, weight: 1 }, { arbitrary: routeShaped, weight: 3 });
    const query = fc.option(
      fc.constantFrom('?extract=ply', '?download=1', '?sig=x&expires=1', '?url=http://evil', '?a=1&a=2'),
      { nil: '' },
    );
    await fc.assert(
      fc.asyncProperty(path, query, fc.constantFrom('GET', 'GET', 'POST', 'PUT', 'DELETE'), async (p, q, method) => {
        let request: Request;
        try {
          request = new Request(`http://site/mediakit/${p}${q}`, {
            method,
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            ...(method === 'GET' ? {} : { body: '{}' }),
          });
        } catch {
          return; // not a URL at all: never reaches a proxy
        }
        const before = seen.length;
        const response = await proxy.fetch(request);
        assert.ok(response.status >= 200 && response.status < 600);
        for (const call of seen.slice(before)) {
          assert.ok(
            allowlisted(call.url),
            `${method} /mediakit/${p}${q} reached ${call.url.pathname}${call.url.search}`,
          );
          assert.ok(call.method === 'GET' || call.method === 'POST');
        }
      }),
      { numRuns: 800 },
    );
    // Control: the same checker passes a real poll, so the property is not vacuous.
    const before = seen.length;
    await proxy.fetch(
      new Request(`http://site/mediakit/api/v1/3d/jobs/${handle}`, { headers: { authorization: `Bearer ${token}` } }),
    );
    assert.equal(seen.length, before + 1);
    assert.equal(seen.at(-1)!.url.pathname, `/api/v1/3d/jobs/${UPSTREAM_ID}`);
    assert.ok(allowlisted(seen.at(-1)!.url));
  });

  it('refuses any one-character change to a session token', async () => {
    const { proxy } = stubbed();
    const token = await proxy.mintToken({ subject: 'prop', capabilities: ['generate'], budget: 10 });
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.';
    await fc.assert(
      fc.asyncProperty(fc.nat(token.length - 1), fc.constantFrom(...alphabet), async (i, c) => {
        fc.pre(token[i] !== c);
        const changed = token.slice(0, i) + c + token.slice(i + 1);
        const r = await proxy.fetch(
          new Request('http://site/mediakit/session', { headers: { authorization: `Bearer ${changed}` } }),
        );
        assert.equal(r.status, 401, `position ${i}: ${token[i]} -> ${c}`);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses any one-character change to a job handle or a download ticket', async () => {
    const { proxy, seen } = stubbed((url) =>
      url.pathname === '/api/v1/3d/jobs'
        ? Response.json(
            {
              data: {
                job_id: UPSTREAM_ID,
                status: 'queued',
                mode: 'text',
                reference_image_url: `/api/demo/3d/jobs/${UPSTREAM_ID}/reference`,
              },
            },
            { status: 202, headers: { 'x-credits-charged': '2' } },
          )
        : new Response(new Uint8Array([0x89, 0x50, 0x4e, 0x47]), { headers: { 'content-type': 'image/png' } }),
    );
    const token = await proxy.mintToken({ subject: 'prop', capabilities: ['generate'], budget: 10 });
    const r = await proxy.fetch(
      new Request('http://site/mediakit/api/v1/3d/jobs', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{"mode":"text","prompt":"cup"}',
      }),
    );
    const { data } = (await r.json()) as { data: { job_id: string; reference_image_url: string } };
    const ticket = /files\/([^/]+)\//.exec(data.reference_image_url)![1]!;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    assert.equal(
      (await proxy.fetch(new Request(`http://site${data.reference_image_url}`))).status,
      200,
      'the unchanged ticket works',
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('handle', 'ticket'),
        fc.nat(10_000),
        fc.constantFrom(...alphabet),
        async (what, n, c) => {
          const value = what === 'handle' ? data.job_id : ticket;
          const i = n % value.length;
          fc.pre(value[i] !== c);
          const changed = value.slice(0, i) + c + value.slice(i + 1);
          const before = seen.length;
          const url =
            what === 'handle'
              ? `http://site/mediakit/api/v1/3d/jobs/${changed}`
              : `http://site/mediakit/files/${changed}/reference.png`;
          const res = await proxy.fetch(new Request(url, { headers: { authorization: `Bearer ${token}` } }));
          assert.equal(res.status, what === 'handle' ? 404 : 403, `${what} position ${i}`);
          assert.equal(seen.length, before, 'nothing went upstream');
        },
      ),
      { numRuns: 300 },
    );
  });

  it('never lets concurrent reservations exceed a budget', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 20 }), { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 0, max: 100 }),
        async (amounts, limit) => {
          const store = new MemoryStore();
          const results = await Promise.all(amounts.map((a, i) => store.reserve('ledger', `r${i}`, a, limit, 60)));
          const granted = amounts.filter((_, i) => results[i]!.ok).reduce((x, y) => x + y, 0);
          assert.ok(granted <= limit);
          assert.equal(await store.used('ledger'), granted);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('never lets concurrent job creations through the proxy spend past the session budget', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 25 }), fc.integer({ min: 0, max: 30 }), async (requests, budget) => {
        let created = 0;
        const proxy = createProxy({
          upstream: async (request) => {
            await request.body?.cancel();
            await new Promise((r) => setTimeout(r, Math.random() * 5));
            created++;
            return Response.json(
              { data: { job_id: `job_${created}`, status: 'queued' }, credits_charged: 2 },
              { status: 202, headers: { 'x-credits-charged': '2' } },
            );
          },
          keys: KEYS,
          secret: SECRET,
          authorize: () => null,
          rateLimits: { create: { limit: 1e9, windowSeconds: 60 } },
        });
        const token = await proxy.mintToken({
          subject: `s${budget}-${requests}-${Math.random()}`,
          capabilities: ['generate'],
          budget,
        });
        const responses = await Promise.all(
          Array.from({ length: requests }, () =>
            proxy.fetch(
              new Request('http://site/mediakit/api/v1/3d/jobs', {
                method: 'POST',
                headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
                body: '{"mode":"text","prompt":"cup"}',
              }),
            ),
          ),
        );
        const ok = responses.filter((r) => r.status === 202).length;
        assert.equal(ok, Math.min(requests, Math.floor(budget / 2)));
        assert.equal(created, ok, 'refused calls never reached upstream');
        assert.ok(responses.every((r) => r.status === 202 || r.status === 402));
      }),
      { numRuns: 60 },
    );
  });
});
