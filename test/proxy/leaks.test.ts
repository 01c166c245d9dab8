/**
 * Nothing secret reaches the browser or the log: no API key, no key prefix, no upstream job id,
 * in any body or header, upstream error bodies and the proxy's own log lines included.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { KEY_PREFIXES } from '../../src/api/index.js';
import { startSandbox, type Harness } from '../sandbox/harness.js';
import { makeImage, makeVideo, toBase64 } from '../fixtures/media.js';
import { bearer, jsonInit, pollUntilDone, spyUpstream, startStack, videoInit, type Stack } from './harness.js';

describe('proxy secrecy', () => {
  let sandbox: Harness;
  let s: Stack;
  const logs: string[] = [];
  const seen: string[] = [];
  let mode: 'pass' | 'echo-400' | 'refuse-401' | 'html-502' = 'pass';

  before(async () => {
    sandbox = await startSandbox({ speed: 1 });
    let keys: Record<string, string> = {};
    const spy = spyUpstream(sandbox.url, (call) => {
      const key = call.headers.get('authorization')?.slice(7) ?? '';
      const leak = `key ${key} (prefix ${Object.values(KEY_PREFIXES).join(',')}) job job_SECRETUPSTREAMID123 all keys ${Object.values(keys).join(' ')}`;
      if (mode === 'echo-400')
        return Response.json(
          { error: { code: 'invalid_request', message: `Bad input for ${leak}` } },
          { status: 400, headers: { 'x-debug-key': key } },
        );
      if (mode === 'refuse-401')
        return Response.json({ error: { code: 'unauthorized', message: `Unknown key ${leak}` } }, { status: 401 });
      if (mode === 'html-502')
        return new Response(`<html>gateway error for ${leak}</html>`, {
          status: 502,
          headers: { 'content-type': 'text/html' },
        });
      return undefined;
    });
    s = await startStack({ sandboxHarness: sandbox, proxy: { upstream: spy.fetch, log: (e) => logs.push(e.message) } });
    keys = s.keys as unknown as Record<string, string>;
  });
  after(async () => {
    await s.close();
    await sandbox.close();
  });

  /** Calls the proxy and keeps every header and (text) body the browser would see. */
  async function call(path: string, init?: RequestInit): Promise<Response> {
    const r = await s.call(path, init);
    const type = r.headers.get('content-type') ?? '';
    const copy = r.clone();
    seen.push(
      path,
      JSON.stringify([...r.headers]),
      type.startsWith('application/json')
        ? await copy.text()
        : new TextDecoder('latin1').decode(await copy.arrayBuffer()),
    );
    return r;
  }

  it('keeps keys and upstream job ids out of every response and log line of a full session', async () => {
    const t = await s.login('watcher', 1000);
    const video = await makeVideo({ seconds: 2, width: 320, height: 240 });
    const png = toBase64(await makeImage({ width: 256, height: 256 }));
    const v = (await (
      await call('/mediakit/api/v1/video-to-3d/jobs', videoInit(t, video, { 'idempotency-key': 'v1' }))
    ).json()) as { data: { job_id: string } };
    await call('/mediakit/api/v1/video-to-3d/jobs', videoInit(t, video, { 'idempotency-key': 'v1' }));
    const vjob = await pollUntilDone(s, `/mediakit/api/v1/video-to-3d/jobs/${v.data.job_id}`, t);
    await call(`/mediakit/api/v1/video-to-3d/jobs/${v.data.job_id}`, { headers: bearer(t) });
    await call(vjob['output'].ply_url);
    const m = (await (
      await call('/mediakit/api/v1/3d/jobs', jsonInit(t, { mode: 'text', prompt: 'a brass key' }))
    ).json()) as { data: { job_id: string } };
    const mjob = await pollUntilDone(s, `/mediakit/api/v1/3d/jobs/${m.data.job_id}`, t);
    await call(`/mediakit/api/v1/3d/jobs/${m.data.job_id}`, { headers: bearer(t) });
    await call(mjob['output'].provider_model_url);
    await call('/mediakit/api/v1/headshot', jsonInit(t, { image_base64: png, variants: [0] }));
    await call('/mediakit/api/v1', jsonInit(t, { image_base64: png }, { accept: 'application/json' }));
    await call('/mediakit/api/v1/3d/jobs/' + 'x'.repeat(80), { headers: bearer(t) });
    for (const m of ['echo-400', 'refuse-401', 'html-502'] as const) {
      mode = m;
      const r = await call('/mediakit/api/v1', jsonInit(t, { image_base64: png }));
      assert.equal(r.status, m === 'echo-400' ? 400 : 502, m);
    }
    mode = 'pass';

    const upstreamIds = (await sandbox.ledger(s.accountId)).entries.map((e) => e.job_id).filter(Boolean) as string[];
    assert.ok(upstreamIds.length >= 2);
    const forbidden = [
      ...Object.values(s.keys),
      ...Object.values(KEY_PREFIXES),
      ...upstreamIds,
      'job_SECRETUPSTREAMID123',
    ];
    const everything = seen.join('\n') + '\n' + logs.join('\n');
    for (const secret of forbidden) assert.ok(!everything.includes(secret), `leaked: ${secret.slice(0, 10)}…`);
    assert.ok(
      logs.some((l) => l.includes('refused')),
      'the refused key was logged (redacted) for the site owner',
    );
    assert.ok(
      seen.some((x) => x.includes('Bad input for key [key]')),
      'upstream messages are kept, with secrets redacted',
    );
  });
});
