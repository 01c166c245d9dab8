/** A ProxyStore whose every method is answered by a store running in another runtime (./stores/handler.js). */
import type { ProxyStore } from '../../src/proxy/index.js';

export function remoteStore(url: string): Required<ProxyStore> {
  const call =
    (method: string) =>
    async (...args: unknown[]): Promise<any> => {
      const r = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ method, args: args.map((a) => (a === undefined ? null : a)) }),
      });
      if (!r.ok) throw new Error(`${method}: ${r.status} ${await r.text()}`);
      return ((await r.json()) as { result: unknown }).result;
    };
  return {
    reserve: call('reserve'),
    settle: call('settle'),
    release: call('release'),
    used: call('used'),
    hit: call('hit'),
    holdBytes: call('holdBytes'),
    dropBytes: call('dropBytes'),
    bytesUsed: call('bytesUsed'),
  };
}
