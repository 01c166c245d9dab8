/**
 * The proxy in workerd (Miniflare), Deno, Bun and the edge runtime, each its own binary from npm,
 * every one running the same HTTP contract (./contract.ts) with the Node sandbox upstream.
 */
import { after, before } from 'node:test';
import { rmSync } from 'node:fs';
import { installPackage } from './package.js';
import { proxyContract } from './contract.js';

let site = '';
before(async () => {
  site = await installPackage();
});
after(() => rmSync(site, { recursive: true, force: true }));

const options = (keeps: boolean) => ({ site: () => site, keeps });
proxyContract('workerd', options(true));
proxyContract('deno', options(true));
proxyContract('bun', options(true));
proxyContract('edge-runtime', options(false));
