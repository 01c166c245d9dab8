/**
 * One check for every link the proxy fetches a job's file from (edge/files.ts `downloadTarget`):
 * the mirrored download and a keep meet the same hostile links from a compromised or misconfigured
 * upstream (another host of this machine, a file: or data: URL, a link that is not a URL) and each
 * refuses in its own words, with no request made and nothing kept; a download never answers 500.
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
import { bearer, startStack, videoInit } from './harness.js';
import { keepInit } from './keep-suite.js';

describe('download links: the download and the keep refuse the same hostile links', () => {
  let sandbox: Harness;
  let bait: Server;
  let baitUrl = '';
  let baitHits = 0;
  let dir = '';
  before(async () => {
    sandbox = await startSandbox({ speed: 1 });
    dir = await mkdtemp(join(tmpdir(), 'mk-download-links-'));
    bait = createServer((_req, res) => {
      baitHits++;
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

  /** The synthetic upstream, with the scene's links replaced by `link`. */
  function answering(link: () => string) {
    const synth = syntheticUpstream(1024);
    return async (request: Request) => {
      const answer = await synth.fetch(request);
      if (!new URL(request.url).pathname.includes('/video-to-3d/jobs/')) return answer;
      const body = (await answer.json()) as { data: { output: Record<string, string> } };
      body.data.output['ply_url'] = link();
      body.data.output['archive_url'] = link();
      return Response.json(body);
    };
  }

  const LINKS: [string, () => string][] = [
    ['another host of this machine', () => `${baitUrl}/admin?x=1`],
    ['a file: URL', () => 'file:///etc/passwd'],
    ['a data: URL', () => 'data:application/octet-stream,ply'],
    ['a link that is not a URL', () => 'http://[::1'],
  ];

  for (const [name, link] of LINKS) {
    it(`${name}: the download answers 404 and the keep 502, nothing fetched or kept`, async () => {
      const logged: string[] = [];
      const s = await startStack({
        sandboxHarness: sandbox,
        proxy: {
          upstream: answering(link),
          results: { store: fileResultStore({ dir: join(dir, name.replace(/\W+/g, '-')) }) },
          log: ({ level, message }) => logged.push(`${level}: ${message}`),
        },
      });
      try {
        const token = await s.proxy.mintToken({ subject: 'sam', capabilities: ['video'], budget: 100 });
        const created = await s.call('/mediakit/api/v1/video-to-3d/jobs', videoInit(token, new Uint8Array(64)));
        const handle = ((await created.json()) as { data: { job_id: string } }).data.job_id;
        baitHits = 0;

        const download = await s.call(`/mediakit/api/app/jobs/${handle}/download?extract=ply`, {
          headers: bearer(token),
        });
        assert.equal(download.status, 404, await download.clone().text());
        assert.match((await envelope(download)).message, /This file is not available\./);

        const kept = await s.call('/mediakit/results', keepInit(token, handle, 'ply'));
        assert.equal(kept.status, 502, await kept.clone().text());
        assert.match((await envelope(kept)).message, /link that cannot be fetched, so nothing was kept/);

        assert.equal(baitHits, 0, 'the proxy made no request to the other host');
        if (name === 'another host of this machine') {
          // Both say which origin was refused and how a site names its provider's storage.
          const warnings = logged.filter((l) => l.includes(new URL(baitUrl).origin) && l.includes('downloadOrigins'));
          assert.equal(warnings.length, 2, logged.join('\n'));
        }
      } finally {
        await s.close();
      }
    });
  }
});
