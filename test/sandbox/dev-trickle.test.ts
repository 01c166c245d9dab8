import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDevStack } from '../../src/dev/index.js';

// The dev stack's slow file route, which the viewers' Loading stories use to hold their loading state.
describe('dev stack: a file sent slowly', () => {
  it('sends a listed file of the same server spread over the seconds asked, with its length; refuses other origins and files', async () => {
    const file = new Uint8Array(40_000).map((_, i) => i % 251);
    const stack = createDevStack({ env: {}, trickleFiles: ['/assets/model.glb', '/assets/missing.glb'] });
    // The route is part of the control plane: a Node caller shows the dev token.
    const headers = { 'x-mediakit-dev-token': stack.devToken };
    const server = createServer((req, res) =>
      stack.middleware(req, res, () =>
        req.url === '/assets/model.glb'
          ? res.writeHead(200, { 'content-type': 'model/gltf-binary' }).end(file)
          : res.writeHead(404).end(),
      ),
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const t0 = performance.now();
      const r = await fetch(`${url}/sandbox/__dev/trickle?src=/assets/model.glb&seconds=2`, { headers });
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('content-length'), '40000');
      // Inert bytes, whatever the file's own type (test/sandbox/dev-stack-security.test.ts).
      assert.equal(r.headers.get('content-type'), 'application/octet-stream');
      let chunks = 0;
      let firstAt = 0;
      let lastAt = 0;
      const parts: Uint8Array[] = [];
      const reader = r.body!.getReader();
      for (let part = await reader.read(); !part.done; part = await reader.read()) {
        lastAt = performance.now();
        if (!chunks++) firstAt = lastAt;
        parts.push(part.value);
      }
      assert.deepEqual(new Uint8Array(Buffer.concat(parts)), file);
      // Spread out, not held back and sent at once (a busy machine only spreads it more).
      assert.ok(lastAt - firstAt >= 1500, `the bytes came over ${Math.round(lastAt - firstAt)} ms`);
      assert.ok(lastAt - t0 >= 1750, 'the last bytes came after about 2 s');
      assert.ok(chunks >= 4, `in pieces (${chunks})`);
      for (const bad of [
        '//example.com/x.glb',
        '/\\example.com/x.glb',
        'http://example.com/x.glb',
        '/assets/other.glb',
        '',
      ]) {
        const b = await fetch(`${url}/sandbox/__dev/trickle?src=${encodeURIComponent(bad)}&seconds=2`, { headers });
        assert.equal(b.status, 400, bad);
        assert.match(await b.text(), /src, a path on this server/);
      }
      assert.equal(
        (await fetch(`${url}/sandbox/__dev/trickle?src=/assets/model.glb&seconds=0`, { headers })).status,
        400,
      );
      assert.equal(
        (await fetch(`${url}/sandbox/__dev/trickle?src=/assets/missing.glb&seconds=1`, { headers })).status,
        404,
      );
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
