#!/usr/bin/env node
/**
 * mediakit-sandbox: the media API emulator as a standalone HTTP server.
 *   mediakit-sandbox --port 4010 --speed 12 [--host 127.0.0.1]
 *
 * Its control plane (`/__sandbox/*`: accounts, faults, clock, ledgers) answers only requests whose
 * Host names this machine (localhost, 127.0.0.1, [::1] or the address it was reached at): a page on
 * a DNS name rebound to 127.0.0.1 sends its own name, with an Origin that matches it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { createSandbox } from './index.js';
import { loopbackHost } from '../server/loopback.js';
import { nodeListener } from '../server/node.js';

const usage = 'usage: mediakit-sandbox --port <port> --speed <clock speed, e.g. 12> [--host 127.0.0.1]';

/** True for a path the sandbox's control plane may see, judged as the sandbox will parse it (escapes and `..` included). */
function controlPlanePath(target: string): boolean {
  let path: string;
  try {
    path = new URL(target, 'http://sandbox').pathname;
  } catch {
    return true;
  }
  try {
    path = decodeURIComponent(path);
  } catch {
    // Left as parsed: the sandbox sees it so too.
  }
  return path.replace(/\/+/g, '/').toLowerCase().startsWith('/__sandbox');
}

/** Why a request is refused before the sandbox sees it (a control-plane call at a Host that is not this machine), else undefined. */
function rebindingRefusal(req: IncomingMessage): string | undefined {
  if (!controlPlanePath(req.url ?? '/') || loopbackHost(req)) return undefined;
  return `The sandbox control plane (/__sandbox/*) answers only at a loopback name: the Host "${String(req.headers.host ?? '').slice(0, 80)}" is not localhost, 127.0.0.1, [::1] or this server's address. Open it as http://localhost:${req.socket.localPort}/.`;
}

function main(): Promise<void> | void {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string' },
        speed: { type: 'string' },
        host: { type: 'string' },
        help: { type: 'boolean' },
      },
    }));
  } catch (err) {
    console.error(`${(err as Error).message}\n${usage}`);
    process.exit(2);
  }
  if (values.help) {
    console.log(usage);
    return;
  }
  const port = Number(values.port);
  const speed = Number(values.speed);
  if (values.port === undefined || !Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`--port is required: a TCP port from 0 to 65535.\n${usage}`);
    process.exit(2);
  }
  if (values.speed === undefined || !(speed > 0)) {
    console.error(
      `--speed is required: how many sandbox seconds pass per real second (12 finishes a short video job in about 20 s; 1 is real time).\n${usage}`,
    );
    process.exit(2);
  }
  const sandbox = createSandbox({ speed });
  const host = values.host ?? '127.0.0.1';
  const listener = nodeListener((r) => sandbox.fetch(r));
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const refusal = rebindingRefusal(req);
    if (!refusal) return listener(req, res);
    req.resume();
    res
      .writeHead(403, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' })
      .end(JSON.stringify({ error: { code: 'forbidden', message: refusal } }));
  });
  const listening = new Promise<{ url: string }>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () =>
      resolve({ url: `http://${host.includes(':') ? `[${host}]` : host}:${(server.address() as AddressInfo).port}` }),
    );
  });
  return listening.then(({ url }) => {
    console.log(`mediakit sandbox listening on ${url} (clock x${speed})`);
    console.log(
      `  create an account: curl -X POST ${url}/__sandbox/accounts -H 'content-type: application/json' -d '{"credits":100}'`,
    );
  });
}

void main();
