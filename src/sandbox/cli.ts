#!/usr/bin/env node
/**
 * mediakit-sandbox: the media API emulator as a standalone HTTP server.
 *   mediakit-sandbox --port 4010 --speed 12 [--host 127.0.0.1]
 */
import { parseArgs } from 'node:util';
import { createSandbox } from './index.js';
import { serve } from '../server/node.js';

const usage = 'usage: mediakit-sandbox --port <port> --speed <clock speed, e.g. 12> [--host 127.0.0.1]';

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
  return serve((r) => sandbox.fetch(r), port, values.host ?? '127.0.0.1').then(({ url }) => {
    console.log(`mediakit sandbox listening on ${url} (clock x${speed})`);
    console.log(
      `  create an account: curl -X POST ${url}/__sandbox/accounts -H 'content-type: application/json' -d '{"credits":100}'`,
    );
  });
}

void main();
