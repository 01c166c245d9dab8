/**
 * The proxy's HTTP contract, run against the proxy in one runtime's own binary (./servers.ts) with
 * the Node sandbox upstream on a local port: a session, refusals, a charged call whose answer was
 * lost replayed with the same Idempotency-Key, a multipart image-tool call, a streamed video
 * upload, polling, a streamed download, and a kept result where the recipe keeps results.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox, type Harness } from '../sandbox/harness.js';
import { makeImage, makeVideo } from '../fixtures/media.js';
import { SECRET } from '../proxy/harness.js';
import { startS3, type FakeS3 } from '../fixtures/s3.js';
import { start, type Running, type RuntimeName, type SiteEnv } from './servers.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface ContractOptions {
  /** The site folder with the package installed (./package.ts). */
  site: () => string;
  /** The recipe keeps results (a results store the runtime can run). */
  keeps: boolean;
}

export function proxyContract(runtime: RuntimeName, options: ContractOptions): void {
  describe(`the proxy on ${runtime}`, () => {
    let sandbox: Harness;
    let accountId: string;
    let proxy: Running;
    let r2: FakeS3 | undefined;
    const call = (path: string, init?: RequestInit) => fetch(proxy.url + path, init);
    const login = async (user: string, budget: number) => {
      const r = await call('/mediakit/session', {
        method: 'POST',
        headers: { cookie: `user=${user}; budget=${budget}` },
      });
      assert.equal(r.status, 200, await r.clone().text());
      return ((await r.json()) as { data: { token: string } }).data.token;
    };
    const auth = (token: string, extra: Record<string, string> = {}) => ({
      authorization: `Bearer ${token}`,
      ...extra,
    });
    const budget = async (token: string) =>
      (
        (await (await call('/mediakit/session', { headers: auth(token) })).json()) as {
          data: { budget: { used: number } };
        }
      ).data.budget;
    const charges = async () => (await sandbox.ledger(accountId)).entries.filter((e) => e.type === 'charge').length;
    const imageForm = async () => {
      const form = new FormData();
      const png = await makeImage({ width: 96, height: 96 });
      form.append('image_file', new Blob([png as Uint8Array<ArrayBuffer>], { type: 'image/png' }), 'photo.png');
      return form;
    };

    before(async () => {
      sandbox = await startSandbox({ speed: 1 });
      const account = await sandbox.account(10_000);
      accountId = account.id;
      const env: SiteEnv = {
        MEDIA_API_URL: sandbox.url,
        MEDIA_KEYS: JSON.stringify(account.keys),
        MEDIAKIT_SECRET: SECRET,
      };
      if (runtime === 'deno' || runtime === 'bun') env.RESULTS_DIR = `${options.site()}/kept-${runtime}`;
      if (runtime === 'deno') env.KV_PATH = `${options.site()}/kv-proxy.sqlite`;
      if (runtime === 'workerd') {
        // R2's S3 API, played by s3ResultStore's own test server (s3rver).
        r2 = await startS3('kept');
        Object.assign(env, {
          R2_ENDPOINT: r2.endpoint,
          R2_BUCKET: r2.bucket,
          R2_ACCESS_KEY_ID: 'S3RVER',
          R2_SECRET_ACCESS_KEY: 'S3RVER',
        });
      }
      proxy = await start(runtime, options.site(), env);
    });
    after(async () => {
      await proxy?.close();
      await sandbox?.close();
      await r2?.close();
    });

    it('opens a session for a signed-in user and refuses anyone else', async () => {
      const r = await call('/mediakit/session', { method: 'POST', headers: { cookie: 'user=ada; budget=30' } });
      assert.equal(r.status, 200);
      const { data } = (await r.json()) as { data: { token: string; budget: { limit: number } } };
      assert.equal(data.budget.limit, 30);
      assert.deepEqual(await budget(data.token), { ...(await budget(data.token)), used: 0, limit: 30 });
      assert.equal((await call('/mediakit/session', { method: 'POST' })).status, 401);
      assert.equal((await call('/mediakit/session', { headers: auth('not-a-token') })).status, 401);
    });

    it('refuses over budget, without a token and with a wrong body type, and nothing goes upstream', async () => {
      const before = await charges();
      const poor = await login('poor', 1);
      const json = { 'content-type': 'application/json' };
      const job = JSON.stringify({ mode: 'text', prompt: 'a brass lamp' });
      const over = await call('/mediakit/api/v1/3d/jobs', { method: 'POST', headers: auth(poor, json), body: job });
      assert.equal(over.status, 402);
      const anonymous = await call('/mediakit/api/v1/3d/jobs', { method: 'POST', headers: json, body: job });
      assert.equal(anonymous.status, 401);
      const rich = await login('rich', 100);
      const text = await call('/mediakit/api/v1/3d/jobs', {
        method: 'POST',
        headers: auth(rich, { 'content-type': 'text/plain' }),
        body: job,
      });
      assert.equal(text.status, 415);
      assert.equal((await budget(rich)).used, 0);
      assert.equal(await charges(), before);
    });

    it('answers a multipart image-tool call with the image and charges it once', async () => {
      const t = await login('cutout', 10);
      const r = await call('/mediakit/api/v1', { method: 'POST', headers: auth(t), body: await imageForm() });
      const bytes = new Uint8Array(await r.arrayBuffer());
      assert.equal(r.status, 200, new TextDecoder().decode(bytes.slice(0, 300)));
      assert.equal(r.headers.get('content-type'), 'image/png');
      assert.deepEqual([...bytes.slice(1, 4)], [0x50, 0x4e, 0x47]);
      assert.equal(r.headers.get('x-credits-charged'), '1');
      assert.equal((await budget(t)).used, 1);
    });

    it('charges a call whose answer was lost once: the replay with the same Idempotency-Key gets the answer', async () => {
      const t = await login('unlucky', 10);
      const before = await charges();
      const key = { 'idempotency-key': `lost-${runtime}-0001` };
      await sandbox.fault(accountId, 'slow', { ms: 1500 });
      // The user's connection drops while the provider is still working: the answer never arrives.
      const gone = new AbortController();
      const first = call('/mediakit/api/v1', {
        method: 'POST',
        headers: auth(t, key),
        body: await imageForm(),
        signal: gone.signal,
      });
      await sleep(500);
      gone.abort();
      await assert.rejects(first);
      await sleep(2000);
      const replay = await call('/mediakit/api/v1', { method: 'POST', headers: auth(t, key), body: await imageForm() });
      assert.equal(replay.status, 200, await replay.clone().text());
      assert.equal(replay.headers.get('idempotent-replayed'), 'true');
      assert.equal(replay.headers.get('content-type'), 'image/png');
      await replay.arrayBuffer();
      assert.equal(await charges(), before + 1, 'one charge upstream');
      assert.equal((await budget(t)).used, 1, 'one credit of the budget');
    });

    it('streams a video upload, polls the job to its end and streams its files down', async () => {
      const t = await login('filmmaker', 100);
      const video = await makeVideo({ seconds: 4, width: 640, height: 480 });
      const form = new FormData();
      form.append('video_file', new Blob([video as Uint8Array<ArrayBuffer>], { type: 'video/mp4' }), 'room.mp4');
      const created = await call('/mediakit/api/v1/video-to-3d/jobs', { method: 'POST', headers: auth(t), body: form });
      assert.equal(created.status, 202, (await created.clone().text()) + proxy.output());
      const handle = ((await created.json()) as { data: { job_id: string } }).data.job_id;
      assert.equal((await budget(t)).used, 20);
      let job: Record<string, any> = {};
      for (let i = 0; i < 200; i++) {
        const r = await call(`/mediakit/api/v1/video-to-3d/jobs/${handle}`, { headers: auth(t) });
        assert.equal(r.status, 200);
        job = ((await r.json()) as { data: Record<string, any> }).data;
        if (job['status'] !== 'queued' && job['status'] !== 'processing') break;
        await sandbox.advance(60_000);
      }
      assert.equal(job['status'], 'succeeded');
      const ply = await call(job['output'].ply_url);
      assert.equal(ply.status, 200);
      assert.equal(ply.headers.get('content-type'), 'application/octet-stream');
      let size = 0;
      let head = '';
      for await (const chunk of ply.body! as unknown as AsyncIterable<Uint8Array>) {
        if (size === 0) head = new TextDecoder().decode(chunk.slice(0, 3));
        size += chunk.byteLength;
      }
      assert.equal(head, 'ply');
      assert.ok(size > 1000, `${size} bytes`);
      const zip = await call(job['output'].archive_url);
      assert.deepEqual([...new Uint8Array(await zip.arrayBuffer()).slice(0, 2)], [0x50, 0x4b]);

      if (!options.keeps) return;
      const keep = await call('/mediakit/results', {
        method: 'POST',
        headers: auth(t, { 'content-type': 'application/json' }),
        body: JSON.stringify({ job: handle, file: 'ply' }),
      });
      assert.equal(keep.status, 201, await keep.clone().text());
      const kept = ((await keep.json()) as { data: { url: string; bytes: number } }).data;
      assert.equal(kept.bytes, size);
      const read = await call(kept.url);
      assert.equal(read.status, 200);
      assert.equal((await read.arrayBuffer()).byteLength, size);
      assert.equal((await budget(t)).used, 20, 'keeping charges nothing');
      if (r2) assert.equal(await r2.count(), 1, 'the kept scene is one object in the bucket');
    });
  });
}
