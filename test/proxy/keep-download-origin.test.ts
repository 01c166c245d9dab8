/**
 * A keep fetches a job's file only from the upstream's origin or one named in `downloadOrigins`:
 * a job answer whose link names another host of this machine (a compromised or misconfigured
 * upstream) keeps nothing and makes no request there.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileResultStore } from '../../src/proxy/index.js';
import { syntheticUpstream } from '../fixtures/synthetic-upstream.js';
import { envelope, startSandbox, type Harness } from '../sandbox/harness.js';
import { startStack, videoInit } from './harness.js';
import { keepInit } from './keep-suite.js';

describe('a keep fetches only from the upstream or a named provider', () => {
  let sandbox: Harness;
  let bait: Server;
  let baitUrl = '';
  let baitHits = 0;
  let dir = '';
  before(async () => {
    sandbox = await startSandbox({ speed: 1 });
    dir = await mkdtemp(join(tmpdir(), 'mk-keep-origin-'));
    bait = createServer((_req, res) => {
      baitHits++;
      res.setHeader('content-type', 'application/octet-stream');
      res.end('ply\nan internal service answered');
    });
    await new Promise<void>((resolve) => bait.listen(0, '127.0.0.1', resolve));
    const address = bait.address();
    baitUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  after(async () => {
    await new Promise((resolve) => bait.close(resolve));
    await sandbox.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** The synthetic upstream, with the scene's links pointing at the bait server. */
  function elsewhere() {
    const synth = syntheticUpstream(1024);
    return async (request: Request) => {
      const answer = await synth.fetch(request);
      if (!new URL(request.url).pathname.includes('/video-to-3d/jobs/')) return answer;
      const body = (await answer.json()) as { data: { output: Record<string, string> } };
      body.data.output['ply_url'] = `${baitUrl}/admin?x=1`;
      body.data.output['archive_url'] = `${baitUrl}/admin?x=2`;
      return Response.json(body);
    };
  }

  for (const allowed of [false, true]) {
    it(
      allowed
        ? 'keeps the file when downloadOrigins names the link\u2019s origin'
        : 'keeps nothing and fetches nothing from a link on another host',
      async () => {
        const s = await startStack({
          sandboxHarness: sandbox,
          proxy: {
            upstream: elsewhere(),
            results: { store: fileResultStore({ dir: join(dir, String(allowed)) }) },
            ...(allowed ? { downloadOrigins: [baitUrl] } : {}),
          },
        });
        try {
          const token = await s.proxy.mintToken({ subject: 'sam', capabilities: ['video'], budget: 100 });
          const created = await s.call('/mediakit/api/v1/video-to-3d/jobs', videoInit(token, new Uint8Array(64)));
          const handle = ((await created.json()) as { data: { job_id: string } }).data.job_id;
          baitHits = 0;
          const kept = await s.call('/mediakit/results', keepInit(token, handle, 'ply'));
          if (allowed) {
            assert.equal(kept.status, 201, await kept.clone().text());
            assert.equal(baitHits, 1);
          } else {
            assert.equal(kept.status, 502);
            assert.match((await envelope(kept)).message, /link that cannot be fetched, so nothing was kept/);
            assert.equal(baitHits, 0, 'the proxy made no request to the other host');
          }
        } finally {
          await s.close();
        }
      },
    );
  }
});
