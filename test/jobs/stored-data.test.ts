/**
 * What this library leaves on a shared computer, in real Chromium: real IndexedDB (the JobStore's
 * default database, as the uploader uses it), real Cache Storage (the result cache the uploader
 * and <model-generator> write) and real session tokens from the proxy at /mk-jobs. Each test file
 * runs in a browser context of its own, so the default database and cache are this file's alone.
 *
 * Two subjects in one browser: the dev stack's demo authorize gives a request without its cookie a
 * new visitor id, so `credentials: 'omit'` mints a token for a subject of its own each time.
 */
import { expect } from '@open-wc/testing';
import { JobPoller, JobStore, MediaClient, ORPHAN_TTL_MS, clearStoredData, type JobRecord } from '../../src/index.js';
import { resultCache } from '../../src/components/shared/result-cache.js';

const endpoint = '/mk-jobs';
const DAY = 24 * 3600 * 1000;

/** A token for a subject no other token has. */
async function newSubject(): Promise<string> {
  const r = await fetch(`${endpoint}/session`, { method: 'POST', credentials: 'omit' });
  return ((await r.json()) as { data: { token: string } }).data.token;
}

/** A page of a user whose site hands the element tokens (the `session` function). */
function pageOf(token: string, onAsk?: () => void): MediaClient {
  return new MediaClient({ endpoint, session: async () => (onAsk?.(), token) });
}

/** What the uploader keeps of a cut upload: the record and the video itself, named after the file. */
function cutUpload(scope: string, at = Date.now()): JobRecord {
  const id = crypto.randomUUID();
  const file = new File([new Uint8Array(4096)], 'alice-holiday-home.mp4', { type: 'video/mp4' });
  return {
    id,
    scope,
    kind: 'video',
    idempotencyKey: id,
    summary: { name: file.name, bytes: file.size },
    createdAt: at,
    updatedAt: at,
    status: 'creating',
    progress: 0,
    request: file,
  };
}

/** Everything in an IndexedDB database of the JobStore's shape, raw (keys and values). */
async function rawEntries(database = 'mediakit-jobs'): Promise<[string, unknown][]> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const open = indexedDB.open(database);
    open.onupgradeneeded = () => open.result.createObjectStore('jobs');
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  try {
    const tx = db.transaction('jobs', 'readonly');
    const keys = await new Promise<IDBValidKey[]>(
      (resolve) =>
        (tx.objectStore('jobs').getAllKeys().onsuccess = (e) =>
          resolve((e.target as IDBRequest<IDBValidKey[]>).result)),
    );
    const values = await new Promise<unknown[]>(
      (resolve) =>
        (tx.objectStore('jobs').getAll().onsuccess = (e) => resolve((e.target as IDBRequest<unknown[]>).result)),
    );
    return keys.map((k, i) => [String(k), values[i]]);
  } finally {
    db.close();
  }
}

/** Every URL in the library's result cache. */
async function cachedUrls(): Promise<string[]> {
  if (!(await caches.has('mediakit-results'))) return [];
  return (await (await caches.open('mediakit-results')).keys()).map((r) => decodeURIComponent(r.url));
}

const scene = () => new Blob([new Uint8Array(2048).fill(7)], { type: 'application/octet-stream' });

afterEach(async () => {
  // Each test starts from an empty device.
  for (const name of await caches.keys()) await caches.delete(name);
  const store = new JobStore();
  for (const [k] of await rawEntries()) await store.delete(k.split('\n')[0]!, k.split('\n').slice(1).join('\n'));
});

describe('stored data: a new subject on this browser', () => {
  it("deletes the previous subject's stored upload and cached result, and keeps the new subject's", async () => {
    const store = new JobStore();
    const alice = pageOf(await newSubject());
    const aliceScope = await alice.scope();
    const upload = cutUpload(aliceScope);
    await store.put(upload);
    expect(await resultCache.put(aliceScope, 'alice-job', scene())).to.equal(true);
    expect((await store.get(aliceScope, upload.id))?.request).to.be.instanceOf(Blob);

    // Alice's session ended; Bob opens the site in the same browser.
    const bobToken = await newSubject();
    const bob = pageOf(bobToken);
    const bobScope = await bob.scope();
    expect(bobScope).not.to.equal(aliceScope);
    // The tag is a hash, never the subject: nothing stored spells out the token's `sub`.
    const sub = (JSON.parse(atob(bobToken.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as { sub: string })
      .sub;
    expect(bobScope).not.to.contain(sub);

    expect(await store.get(aliceScope, upload.id)).to.equal(undefined);
    expect(await resultCache.get(aliceScope, 'alice-job')).to.equal(undefined);
    // Nothing of Alice's is left to read from storage by any other means either.
    const raw = await rawEntries();
    expect(raw.filter(([k]) => k.startsWith(aliceScope))).to.deep.equal([]);
    expect(raw.filter(([, v]) => JSON.stringify(v ?? null).includes('alice-holiday'))).to.deep.equal([]);
    expect((await cachedUrls()).filter((u) => u.includes(aliceScope))).to.deep.equal([]);

    // Bob's own stored upload and result survive his next page load (that is what lets a resend work).
    const bobUpload = cutUpload(bobScope);
    await store.put(bobUpload);
    await resultCache.put(bobScope, 'bob-job', scene());
    const bobAgain = pageOf(bobToken);
    expect(await bobAgain.scope()).to.equal(bobScope);
    expect((await store.get(bobScope, bobUpload.id))?.request).to.be.instanceOf(Blob);
    expect((await resultCache.get(bobScope, 'bob-job'))?.size).to.equal(2048);
  });

  it("leaves other endpoints' data alone: the subject changed only for this proxy", async () => {
    const store = new JobStore();
    const elsewhere = `${location.origin}/other-proxy#0123456789abcdef0123456789abcdef`;
    const kept = cutUpload(elsewhere);
    await store.put(kept);
    await resultCache.put(elsewhere, 'kept-job', scene());
    await pageOf(await newSubject()).session();
    expect((await store.get(elsewhere, kept.id))?.request).to.be.instanceOf(Blob);
    expect(await resultCache.get(elsewhere, 'kept-job')).to.be.instanceOf(Blob);
  });
});

describe('stored data: unfinished records expire', () => {
  it('prunes, on start, unfinished records untouched for the orphan time and keeps fresh ones', async () => {
    expect(ORPHAN_TTL_MS).to.equal(DAY);
    const store = new JobStore();
    const client = new MediaClient({ endpoint });
    const scope = await client.scope();
    // Another user's records on another proxy of this site: resume() never sends or polls them,
    // so only pruning can remove them.
    const other = `${location.origin}/other-proxy#fedcba9876543210fedcba9876543210`;
    const now = Date.now();
    const staleUpload = cutUpload(other, now - ORPHAN_TTL_MS - 60_000);
    const freshUpload = cutUpload(other, now - ORPHAN_TTL_MS + 60 * 60_000);
    const handleNeverCame: JobRecord = { ...cutUpload(scope, now - ORPHAN_TTL_MS - 60_000), request: undefined };
    delete handleNeverCame.request;
    const fresherNoHandle: JobRecord = { ...cutUpload(scope, now), request: undefined };
    delete fresherNoHandle.request;
    // A job polled last a week and more ago (its tab never came back) is as stale as a finished one.
    const abandoned: JobRecord = {
      ...cutUpload(other, now - 8 * DAY),
      status: 'processing',
      handle: 'h1',
      progress: 0.4,
    };
    delete abandoned.request;
    const running: JobRecord = {
      ...cutUpload(other, now - 2 * DAY),
      status: 'processing',
      handle: 'h2',
      progress: 0.4,
    };
    delete running.request;
    for (const r of [staleUpload, freshUpload, handleNeverCame, fresherNoHandle, abandoned, running])
      await store.put(r);

    const poller = new JobPoller(client, { store, channel: `test-${crypto.randomUUID()}` });
    try {
      await poller.resume();
      expect(await store.get(other, staleUpload.id)).to.equal(undefined);
      expect(await store.get(scope, handleNeverCame.id)).to.equal(undefined);
      expect(await store.get(other, abandoned.id)).to.equal(undefined);
      expect((await store.get(other, freshUpload.id))?.request).to.be.instanceOf(Blob);
      expect(await store.get(scope, fresherNoHandle.id)).to.not.equal(undefined);
      expect(await store.get(other, running.id)).to.not.equal(undefined);
    } finally {
      poller.dispose();
    }
  });
});

describe('stored data: clearStoredData()', () => {
  it("empties the library's databases and result cache for every subject, and forgets the held session", async () => {
    const store = new JobStore();
    const ownDatabase = `test-clear-${crypto.randomUUID()}`;
    const own = new JobStore({ database: ownDatabase });
    let asked = 0;
    const client = pageOf(await newSubject(), () => asked++);
    const scope = await client.scope();
    const elsewhere = `${location.origin}/other-proxy#00112233445566778899aabbccddeeff`;
    await store.put(cutUpload(scope));
    await store.put(cutUpload(elsewhere));
    await own.put(cutUpload(scope));
    await resultCache.put(scope, 'a', scene());
    await resultCache.put(elsewhere, 'b', scene());
    expect(asked).to.equal(1);

    await clearStoredData();

    expect(await rawEntries()).to.deep.equal([]);
    expect(await rawEntries(ownDatabase)).to.deep.equal([]);
    expect(await cachedUrls()).to.deep.equal([]);
    // The next user of this page gets a session of their own, not the one held for the last.
    await client.session();
    expect(asked).to.equal(2);
    // Safe to call twice, and on a page that stored nothing.
    await clearStoredData();
  });

  it('deletes the converted videos kept on the device for a resend', async () => {
    const root = await navigator.storage.getDirectory();
    const dir = await root.getDirectoryHandle('mediakit-converted', { create: true });
    const file = await dir.getFileHandle('walkthrough.mp4', { create: true });
    const writable = await file.createWritable();
    await writable.write(new Uint8Array(1024));
    await writable.close();

    await clearStoredData();

    const names: string[] = [];
    for await (const name of (root as unknown as { keys(): AsyncIterable<string> }).keys()) names.push(name);
    expect(names).to.not.include('mediakit-converted');
  });
});
