// A store made in this runtime, its methods called over HTTP (POST { method, args }), so the store
// contract written for Node (test/proxy/store-contract.ts) runs against it unchanged.
const METHODS = new Set(['reserve', 'settle', 'release', 'used', 'hit', 'holdBytes', 'dropBytes', 'bytesUsed']);

/** @param {import('@mediakit/elements/proxy').ProxyStore} store @param {Request} request */
export async function callStore(store, request) {
  const { method, args } = await request.json();
  if (!METHODS.has(method)) return new Response('no such method', { status: 404 });
  try {
    const result = await store[method](...args.map((a) => (a === null ? undefined : a)));
    return Response.json({ result });
  } catch (err) {
    return new Response(String(err?.stack ?? err), { status: 500 });
  }
}
