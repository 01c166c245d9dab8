import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
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
});
