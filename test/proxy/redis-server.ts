/** The Redis CI started (REDIS_URL), or a private redis-server for one test file. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

const REDIS = process.env['REDIS_SERVER'] ?? 'redis-server';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise((r) => server.close(r));
  return port;
}

export async function startRedis(): Promise<{ url: string; child: ChildProcess | undefined }> {
  if (process.env['REDIS_URL']) return { url: process.env['REDIS_URL'], child: undefined };
  const port = await freePort();
  const child = spawn(REDIS, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c) => {
      out += c;
      if (out.includes('Ready to accept connections')) resolve();
    });
    child.once('error', (err) =>
      reject(
        new Error(
          `could not start ${REDIS} (npm test installs it, or: sudo apt-get install -y redis-server): ${err.message}`,
        ),
      ),
    );
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${out}`)));
  });
  return { url: `redis://127.0.0.1:${port}`, child };
}
