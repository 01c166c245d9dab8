/**
 * Every body the proxy reads is bounded in time and memory, over real sockets: a stalled headshot
 * upload is cut (408), one subject cannot hold more than its share of buffered bytes (429), and
 * all subjects together cannot hold more than the total (503).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { bearer, collect, startStack, type Stack } from './harness.js';
import { sleep } from './net.js';

const MiB = 1024 * 1024;

/** Starts a JSON headshot upload that declares `declared` bytes, sends `sent`, then stalls. */
function stalled(
  s: Stack,
  token: string,
  declared: number,
  sent: number,
): { req: ClientRequest; answer: Promise<{ status: number; body: string }> } {
  const u = new URL(s.url);
  const req = httpRequest({
    host: u.hostname,
    port: u.port,
    method: 'POST',
    path: '/mediakit/api/v1/headshot',
    headers: bearer(token, { 'content-type': 'application/json', 'content-length': String(declared) }),
  });
  req.on('error', () => {});
  const answer = collect(req);
  answer.catch(() => {});
  req.write('{"image_base64":"' + 'A'.repeat(Math.max(0, sent - 18)));
  return { req, answer };
}

describe('bounded request bodies', () => {
  let s: Stack;
  before(async () => {
    s = await startStack({
      proxy: { uploadIdleTimeoutMs: 400, maxBufferedBytesPerSubject: 3 * MiB, maxBufferedBytes: 5 * MiB },
    });
  });
  after(() => s.close());

  it('cuts a stalled headshot upload with 408 after the idle time', async () => {
    const t = await s.login('staller', 100);
    const started = Date.now();
    const { req, answer } = stalled(s, t, 2 * MiB, 64 * 1024);
    const r = await Promise.race([answer, sleep(5000).then(() => ({ status: 0, body: 'no answer' }))]);
    req.destroy();
    assert.equal(r.status, 408, r.body);
    assert.match(r.body, /upload_timeout/);
    assert.ok(Date.now() - started < 3000);
  });

  it('refuses a subject past its buffered-bytes cap with 429, and all subjects past the total with 503', async () => {
    // A long idle time here: the held uploads must stay held while the others are checked.
    const s = await startStack({
      proxy: { uploadIdleTimeoutMs: 20_000, maxBufferedBytesPerSubject: 3 * MiB, maxBufferedBytes: 5 * MiB },
    });
    const t = await s.login('hoarder', 100);
    const u = await s.login('other', 100);
    const v = await s.login('third', 100);
    const held = [stalled(s, t, 2 * MiB, 2 * MiB - 100)];
    await sleep(150);
    const second = stalled(s, t, 2 * MiB, 64 * 1024);
    const r = await second.answer;
    assert.equal(r.status, 429, r.body);
    held.push(stalled(s, u, 2 * MiB, 2 * MiB - 100));
    await sleep(150);
    const third = stalled(s, v, 2 * MiB, 64 * 1024);
    const r3 = await third.answer;
    assert.equal(r3.status, 503, r3.body);
    for (const h of [...held, second, third]) h.req.destroy();
    await s.close();
  });
});
