/**
 * The stores made for Workers and Deno, each running in its own runtime (the Durable Object store
 * in workerd through Miniflare, the Deno KV store in Deno on a KV file), through the same store
 * contract as Memory and Redis (test/proxy/store-contract.ts): every method, expiry, atomic
 * reserve and hit under concurrency, and the refund-window property with the proxy in front.
 */
import { after, before, describe, it } from 'node:test';
import { rmSync } from 'node:fs';
import { installPackage } from './package.js';
import { startStore, type Running } from './servers.js';
import { remoteStore } from './remote-store.js';
import {
  bytesContract,
  concurrentContract,
  contract,
  expiryContract,
  refundProperty,
} from '../proxy/store-contract.js';

let site = '';
before(async () => {
  site = await installPackage();
});
after(() => rmSync(site, { recursive: true, force: true }));

for (const kind of ['durable-object', 'deno-kv'] as const) {
  describe(`the ${kind} store`, () => {
    let running: Running;
    before(async () => {
      running = await startStore(kind, site);
    });
    after(async () => {
      await running?.close();
    });
    const store = () => remoteStore(running.url);

    it('keeps the store contract', async () => {
      await contract(store(), `contract-${Date.now()}`);
    });
    it('counts kept bytes: set, move, drop, limits', async () => {
      await bytesContract(store(), `bytes-${Date.now()}`);
    });
    it('reserves and counts atomically under concurrent calls', async () => {
      await concurrentContract(store(), `race-${Date.now()}`);
    });
    it('forgets ledgers, counters and held bytes when their time to live has passed', async () => {
      await expiryContract(store(), `expiry-${Date.now()}`);
    });
    it('refunds a failed job once, into the window it was charged to (the refund-window property)', async () => {
      let n = 0;
      await refundProperty(() => {
        const inner = store();
        const prefix = `refund-${Date.now()}-${n++}:`;
        return Object.fromEntries(
          Object.entries(inner).map(([k, f]) => [
            k,
            (key: string, ...rest: unknown[]) => (f as any)(prefix + key, ...rest),
          ]),
        ) as unknown as typeof inner;
      }, 25);
    });
  });
}
