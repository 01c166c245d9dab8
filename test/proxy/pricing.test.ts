/**
 * Odd inputs against the budget, over real HTTP to a real sandbox: headshot `variants` priced by
 * upstream's own rule, Idempotency-Key reuse after upstream forgot the key, and a conflicting key
 * that must not release another request's reservation.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox, type Harness } from '../sandbox/harness.js';
import { makeImage, toBase64 } from '../fixtures/media.js';
import { COSTS, parseVariants } from '../../src/api/index.js';
import { headshotParams } from '../../src/sandbox/params.js';
import { bearer, jsonInit, startStack, type Stack } from './harness.js';
import { sleep, slowUpstream, type SlowUpstream } from './net.js';

const CREDITS = 10_000;
const usedOf = async (s: Stack, token: string) =>
  (
    (await (await s.call('/mediakit/session', { headers: bearer(token) })).json()) as {
      data: { budget: { used: number } };
    }
  ).data.budget.used;
const upstreamCharged = async (s: Stack) => CREDITS - (await s.sandbox.ledger(s.accountId)).balance;

describe('the budget against odd inputs', () => {
  let sandbox: Harness;
  let selfie: Uint8Array;
  before(async () => {
    sandbox = await startSandbox({ speed: 1 });
    selfie = await makeImage({ width: 128, height: 128 });
  });
  after(() => sandbox.close());

  it('prices headshot variants by the one rule the sandbox applies (src/api parseVariants)', () => {
    for (const raw of [
      undefined,
      null,
      '',
      '   ',
      '0,2',
      ' 1 , 3 ',
      [2],
      [0, 1, 2, 3],
      [],
      [1, 1],
      [4],
      '1,x',
      'x',
      3,
      { 0: 1 },
      ['1'],
    ]) {
      const parsed = parseVariants(raw);
      let sandboxSlots: number[] | string;
      try {
        sandboxSlots = headshotParams({
          kind: 'json',
          fields: new Map(),
          json: raw === undefined ? {} : { variants: raw },
        }).variants;
      } catch (err) {
        sandboxSlots = (err as Error).message;
      }
      assert.deepEqual(parsed.ok ? parsed.slots : parsed.message, sandboxSlots, JSON.stringify(raw));
    }
  });

  it('reserves the full batch for variants "", null, whitespace or an empty multipart field: ten parallel calls cannot spend past a budget of 20', async () => {
    const s = await startStack({ sandboxHarness: sandbox, credits: CREDITS });
    try {
      const cases: ((t: string) => RequestInit)[] = [
        (t) => jsonInit(t, { image_base64: toBase64(selfie), variants: '' }),
        (t) => jsonInit(t, { image_base64: toBase64(selfie), variants: null }),
        (t) => jsonInit(t, { image_base64: toBase64(selfie), variants: '  ' }),
        (t) => {
          const form = new FormData();
          form.set('image_file', new Blob([selfie as Uint8Array<ArrayBuffer>], { type: 'image/png' }), 'me.png');
          form.set('variants', '');
          return { method: 'POST', headers: bearer(t), body: form };
        },
      ];
      for (const [i, init] of cases.entries()) {
        const t = await s.login(`slots-${i}`, 20);
        const before = await upstreamCharged(s);
        const answers = await Promise.all(
          Array.from({ length: 10 }, () => s.call('/mediakit/api/v1/headshot', init(t))),
        );
        const statuses = answers.map((r) => r.status);
        const spent = (await upstreamCharged(s)) - before;
        assert.ok(spent <= 20, `case ${i}: upstream charged ${spent} of a budget of 20 (${statuses.join(',')})`);
        assert.equal(await usedOf(s, t), spent, `case ${i}`);
        assert.equal(statuses.filter((x) => x === 200).length, 2, `case ${i}: ${statuses.join(',')}`);
      }
    } finally {
      await s.close();
    }
  });

  it('counts a reused Idempotency-Key as a new charge when upstream has forgotten it (no replay mark)', async () => {
    const s = await startStack({ sandboxHarness: sandbox, credits: CREDITS });
    try {
      const t = await s.login('reuser', 4);
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const r = await s.call(
          '/mediakit/api/v1/3d/jobs',
          jsonInit(t, { mode: 'text', prompt: 'a kept key' }, { 'idempotency-key': 'same-key' }),
        );
        statuses.push(r.status);
        await r.arrayBuffer();
        await sandbox.advance(25 * 3600 * 1000); // the sandbox keeps keys 24 h
      }
      const charged = await upstreamCharged(s);
      assert.ok(charged <= 4, `upstream charged ${charged} of a budget of 4 (${statuses.join(',')})`);
      assert.equal(await usedOf(s, t), charged);
      assert.deepEqual(statuses, [202, 202, 402, 402]);
    } finally {
      await s.close();
    }
  });

  it('a replay that upstream marks as one settles at 0 and keeps the job refundable once', async () => {
    const s = await startStack({ sandboxHarness: sandbox, credits: CREDITS });
    try {
      const t = await s.login('replayer', 4);
      const init = () => jsonInit(t, { mode: 'text', prompt: 'a replayed cup' }, { 'idempotency-key': 'k-replay' });
      const a = await s.call('/mediakit/api/v1/3d/jobs', init());
      const b = await s.call('/mediakit/api/v1/3d/jobs', init());
      assert.deepEqual([a.status, b.status], [202, 202]);
      assert.equal(b.headers.get('idempotent-replayed'), 'true');
      assert.equal(await usedOf(s, t), 2);
      assert.equal(await upstreamCharged(s), 2);
    } finally {
      await s.close();
    }
  });

  it('a conflicting request with the same key does not release the reservation of the request in flight', async () => {
    const slow: SlowUpstream = await slowUpstream(sandbox.url, 600);
    const s = await startStack({ sandboxHarness: sandbox, credits: CREDITS, proxy: { upstream: slow.url } });
    try {
      const t = await s.login('conflicted', COSTS.modelJob);
      const first = s.call(
        '/mediakit/api/v1/3d/jobs',
        jsonInit(t, { mode: 'text', prompt: 'the first' }, { 'idempotency-key': 'k1' }),
      );
      await slow.nextReceived();
      const conflict = await s.call(
        '/mediakit/api/v1/3d/jobs',
        jsonInit(t, { mode: 'text', prompt: 'another body' }, { 'idempotency-key': 'k1' }),
      );
      const third = await s.call(
        '/mediakit/api/v1/3d/jobs',
        jsonInit(t, { mode: 'text', prompt: 'a third' }, { 'idempotency-key': 'k3' }),
      );
      assert.equal((await first).status, 202);
      assert.ok([400, 402].includes(conflict.status), `conflict: ${conflict.status}`);
      assert.equal(third.status, 402, 'the first call still holds the whole budget');
      await sleep(slow.delayMs + 300);
      assert.equal(await upstreamCharged(s), COSTS.modelJob);
      assert.equal(await usedOf(s, t), COSTS.modelJob);
    } finally {
      await s.close();
      await slow.close();
    }
  });
});
