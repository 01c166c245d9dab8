import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { describe, it } from 'node:test';

function startCli(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/sandbox/cli.ts', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (out += c));
  const exited = new Promise<number>((r) => child.on('close', (code) => r(code ?? -1)));
  return { child, output: () => out, exited };
}

/** Where a started CLI listens (it prints the URL). */
async function listening(cli: ReturnType<typeof startCli>): Promise<string> {
  let url: string | undefined;
  for (let i = 0; i < 100 && !url; i++) {
    url = /listening on (http:\/\/\S+)/.exec(cli.output())?.[1];
    if (!url) await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(url, cli.output());
  return url;
}

/**
 * A request with a Host header of our choosing (fetch drops `host`): what a browser sends for a
 * page on a DNS name that an attacker rebound to 127.0.0.1.
 */
function send(
  url: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; text: string; headers: Record<string, unknown> }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, method, path, headers, setHost: !headers['host'] }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('mediakit-sandbox CLI', () => {
  it('requires --port and --speed, saying so', async () => {
    const a = startCli(['--speed', '12']);
    assert.equal(await a.exited, 2);
    assert.match(a.output(), /--port is required/);
    const b = startCli(['--port', '0']);
    assert.equal(await b.exited, 2);
    assert.match(b.output(), /--speed is required/);
  });

  it('prints where it listens and serves the API there', async () => {
    const cli = startCli(['--port', '0', '--speed', '12']);
    try {
      let url: string | undefined;
      for (let i = 0; i < 100 && !url; i++) {
        url = /listening on (http:\/\/\S+)/.exec(cli.output())?.[1];
        if (!url) await new Promise((r) => setTimeout(r, 100));
      }
      assert.ok(url, cli.output());
      const r = await fetch(url + '/__sandbox/accounts', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"credits":3}',
      });
      const { keys } = (await r.json()) as any;
      const account = await fetch(url + '/api/v1/account', { headers: { 'x-api-key': keys.video } });
      assert.deepEqual(await account.json(), { data: { credits: { balance: 3 } } });
    } finally {
      cli.child.kill();
    }
  });

  it('refuses its control plane to a Host that is not a loopback name (DNS rebinding)', async () => {
    const cli = startCli(['--port', '0', '--speed', '12']);
    try {
      const url = await listening(cli);
      const port = new URL(url).port;
      const json = { 'content-type': 'application/json' };
      // A page on evil.example, rebound to 127.0.0.1: its Origin matches the Host it sends.
      for (const name of ['evil.example', 'localhost.evil.example', '127.0.0.1.nip.io', 'EVIL.example.']) {
        const rebound = { host: `${name}:${port}`, origin: `http://${name}:${port}`, 'sec-fetch-site': 'same-origin' };
        const account = await send(url, 'POST', '/__sandbox/accounts', { ...rebound, ...json }, '{"credits":1000000}');
        assert.equal(account.status, 403, `${name}: ${account.text}`);
        assert.doesNotMatch(account.text, /"keys"|acct_/);
        assert.match(account.text, /loopback|localhost/);
        assert.equal(account.headers['access-control-allow-origin'], undefined);
        const clock = await send(url, 'POST', '/__sandbox/clock', { ...rebound, ...json }, '{"advance_ms":86400000}');
        assert.equal(clock.status, 403, `${name}: ${clock.text}`);
        for (const path of ['/__sandbox/faults', '//__sandbox/clock', '/%5F_sandbox/clock', '/x/../__sandbox/clock']) {
          const other = await send(url, 'POST', path, { ...rebound, ...json }, '{"advance_ms":1}');
          assert.notEqual(other.status, 200, `${name} ${path}: ${other.text}`);
          assert.notEqual(other.status, 201, `${name} ${path}: ${other.text}`);
        }
      }
      // The clock did not move: an honest call from this machine advances it by 0 and reads it.
      const honest = await send(url, 'POST', '/__sandbox/clock', { ...json, origin: url }, '{"advance_ms":0}');
      assert.equal(honest.status, 200, honest.text);
      const now = Date.parse((JSON.parse(honest.text) as { now: string }).now);
      assert.ok(Math.abs(now - Date.now()) < 60 * 60 * 1000, `the clock moved: ${honest.text}`);
      // Every loopback spelling still works.
      for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `LOCALHOST:${port}`]) {
        const ok = await send(url, 'POST', '/__sandbox/accounts', { ...json, host }, '{"credits":1}');
        assert.equal(ok.status, 201, `${host}: ${ok.text}`);
      }
      // The API itself answers whatever the Host (its keys are what protect it).
      const api = await send(url, 'GET', '/api/v1/account', { host: `evil.example:${port}` });
      assert.equal(api.status, 401);
    } finally {
      cli.child.kill();
    }
  });
});
