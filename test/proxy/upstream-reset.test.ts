/**
 * A kept-alive connection to the upstream that the upstream closes just as the proxy reuses it
 * (Node's keep-alive timeout racing the next request) costs the browser nothing: a GET goes once
 * more on a fresh connection instead of answering 502. Real HTTP: a relay in front of the sandbox
 * cuts every connection on its second request, before the sandbox sees it.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer as createTcpServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';
import { startSandbox, type Harness } from '../sandbox/harness.js';
import { makeVideo } from '../fixtures/media.js';
import { bearer, startStack, videoInit, type Stack } from './harness.js';

/** Passes each connection's first request through; a second request on the same connection closes it unanswered. */
function resettingRelay(port: number): { server: Server; resets: () => number } {
  let resets = 0;
  const sockets = new Set<Socket>();
  const server = createTcpServer((client) => {
    const upstream = connect(port, '127.0.0.1');
    sockets.add(client).add(upstream);
    let requests = 0;
    client.on('data', (chunk: Buffer) => {
      // A request line starts every request this test's proxy sends (GETs and small POSTs).
      requests += chunk.toString('latin1').match(/^(GET|POST|HEAD|DELETE|PUT) \S+ HTTP\/1\.1\r\n/gm)?.length ?? 0;
      if (requests > 1) {
        resets++;
        client.destroy();
        upstream.destroy();
        return;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => void (client.destroyed || client.write(chunk)));
    const cut = () => {
      client.destroy();
      upstream.destroy();
    };
    for (const s of [client, upstream]) {
      s.on('error', cut);
      s.on('close', cut);
    }
  });
  server.on('close', () => sockets.forEach((s) => s.destroy()));
  return { server, resets: () => resets };
}

describe('proxy: an upstream connection reset on reuse', () => {
  let sandbox: Harness;
  let relay: ReturnType<typeof resettingRelay>;
  let s: Stack;
  before(async () => {
    sandbox = await startSandbox({ speed: 1 });
    relay = resettingRelay(Number(new URL(sandbox.url).port));
    await new Promise<void>((r) => relay.server.listen(0, '127.0.0.1', r));
    const relayUrl = `http://127.0.0.1:${(relay.server.address() as AddressInfo).port}`;
    s = await startStack({ sandboxHarness: { ...sandbox, url: relayUrl } });
  });
  after(async () => {
    await s.close();
    relay.server.close();
    await sandbox.close();
  });

  it('every poll answers 200 while the upstream cuts each reused connection', async () => {
    const token = await s.login('alice', 500);
    const created = await s.call(
      '/mediakit/api/v1/video-to-3d/jobs',
      videoInit(token, await makeVideo({ seconds: 1, width: 320, height: 240 })),
    );
    assert.equal(created.status, 202, await created.clone().text());
    const { job_id } = ((await created.json()) as { data: { job_id: string } }).data;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const r = await s.call(`/mediakit/api/v1/video-to-3d/jobs/${job_id}`, { headers: bearer(token) });
      statuses.push(r.status);
      await r.arrayBuffer();
    }
    assert.ok(relay.resets() >= 3, `the relay cut reused connections (${relay.resets()})`);
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 200]);
  });
});
