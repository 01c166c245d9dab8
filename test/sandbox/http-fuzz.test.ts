/**
 * The generated-request fuzz (./http-fuzz.ts) over real HTTP: the proxy on the memory and the
 * Redis store, the dev stack on a real Vite server, and the standalone sandbox, each in its own
 * process, 2,500 requests to each (10,000 in all; FUZZ_REQUESTS sets the number per target,
 * FUZZ_SEED repeats a run). Every target answers every request: no 5xx, no hang past 10 s after
 * the body ended, no connection dropped without an answer, no process dying, and no control
 * plane served to a foreign Host. A 5xx that Vite itself answers for a path the dev stack passed
 * on to it (a module it cannot load: `/@fs/<file>/<more>` is ENOTDIR) is listed, not failed; so is
 * a failure that answers properly when the same request is sent again at once (a moment's load on
 * a busy CI machine), at most one in a thousand: a handling bug fails the same way twice.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatReport, runFuzz } from './http-fuzz.js';

const PER_TARGET = Number(process.env['FUZZ_REQUESTS'] ?? 2500);
const SEED = process.env['FUZZ_SEED'] ? Number(process.env['FUZZ_SEED']) : undefined;

describe('HTTP fuzz: generated requests against every server of the package', () => {
  it('answers every request with no 5xx, no hang and no crash, on all four targets', { timeout: 600_000 }, async () => {
    const report = await runFuzz({
      perTarget: PER_TARGET,
      ...(SEED !== undefined ? { seed: SEED } : {}),
      log: () => {},
    });
    console.log(formatReport(report));
    // Failures first: the report is what a red CI run shows.
    const findings = [...report.findings].sort(
      (a, b) => Number(a.kind === "Vite's 5xx") - Number(b.kind === "Vite's 5xx"),
    );
    for (const f of findings.slice(0, 20)) console.error(`  ${f.target} ${f.kind} ${f.detail}: ${f.request}`);
    for (const line of report.stderr.slice(0, 20)) console.log(`  stderr ${line}`);
    // The first finding of a kind, in the assertion's message: the part of a CI log that is kept.
    const first = (target: string, kind: string) => {
      const f = report.findings.find((x) => x.target === target && x.kind === kind);
      return f ? ` (first: ${f.detail}: ${f.request.slice(0, 300)}; seed ${report.seed})` : ` (seed ${report.seed})`;
    };
    let total = 0;
    for (const [name, c] of report.counts) {
      total += c.requests;
      assert.equal(c.requests, PER_TARGET, name);
      assert.equal(c.s5xx, 0, `${name}: ${c.s5xx} answers were 5xx${first(name, '5xx')}`);
      assert.equal(c.hangs, 0, `${name}: ${c.hangs} requests had no answer within 10 s${first(name, 'hang')}`);
      assert.equal(
        c.crashes,
        0,
        `${name}: ${c.crashes} requests were dropped or met a dead process${first(name, 'crash')}`,
      );
      assert.ok(
        c.transient <= PER_TARGET / 1000,
        `${name}: ${c.transient} requests failed once and answered when sent again${first(name, 'transient')}`,
      );
      assert.equal(
        c.foreignHost,
        0,
        `${name}: ${c.foreignHost} control-plane requests with a foreign Host were served${first(name, 'foreign Host served')}`,
      );
    }
    assert.equal(report.counts.size, 4);
    assert.equal(total, PER_TARGET * 4);
  });
});

describe('the dev stack on Vite survives what the fuzz found', () => {
  it('answers a path that is not valid percent-encoding with 400 and keeps serving', { timeout: 60_000 }, async () => {
    const { spawn } = await import('node:child_process');
    const { connect } = await import('node:net');
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/sandbox/http-fuzz-target.ts', 'dev'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout!.on('data', (c) => {
          out += c;
          const m = /READY (\{.*\})/.exec(out);
          if (m) resolve((JSON.parse(m[1]!) as { url: string }).url);
        });
        child.once('exit', (code) => reject(new Error(`the dev server exited with ${code}`)));
      });
      const port = Number(new URL(url).port);
      // Vite's index.html middleware decodes this path outside a try: the rejection nobody
      // handles ends the whole dev server (`npm start`), so one <img> on any page could stop it.
      for (const path of ['/%c0%ae.html', '/%E0%A4%A.html', '/sub/%ff.html?x=1']) {
        const status = await new Promise<string>((resolve) => {
          const s = connect({ port, host: '127.0.0.1' });
          let got = '';
          s.on('data', (c) => (got += c));
          s.on('error', () => undefined);
          s.on('close', () => resolve(got.split('\r\n')[0] || 'no answer'));
          s.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
        });
        assert.equal(status, 'HTTP/1.1 400 Bad Request', path);
      }
      const page = await fetch(`${url}/`);
      assert.equal(page.status, 200, 'the dev server still serves its page');
      assert.equal(child.exitCode, null);
    } finally {
      child.kill();
    }
  });
});
