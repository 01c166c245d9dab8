/**
 * guardBody, the streamed upload between the browser and upstream: a body that breaks errors the
 * stream for whoever reads it and stops its watchdog; a call that is over releases the browser's
 * body and leaves no timer behind.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { guardBody, type GuardState } from '../../src/proxy/edge/body-guard.js';
import { createProxy } from '../../src/proxy/index.js';
import { SECRET } from './harness.js';

/** A source the test feeds by hand; `cancelled` resolves when its reader cancels it. */
function handFed() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let cancelled!: () => void;
  const wasCancelled = new Promise<void>((r) => (cancelled = r));
  const stream = new ReadableStream<Uint8Array>(
    { start: (c) => void (controller = c), cancel: () => cancelled() },
    { highWaterMark: 0 },
  );
  return { stream, push: (n: number) => controller.enqueue(new Uint8Array(n)), wasCancelled };
}

const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
/** 'settled' when `p` settles within `ms`, else 'pending' (its own timer cleared either way, so timers() stays exact). */
async function within<T>(p: Promise<T>, ms: number): Promise<'settled' | 'pending'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'pending'>((r) => (timer = setTimeout(() => r('pending'), ms)));
  try {
    return await Promise.race([
      p.then(
        () => 'settled' as const,
        () => 'settled' as const,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

describe('guardBody', () => {
  it('errors the stream when the body is marked broken while a read waits, and stops its watchdog', async () => {
    const baseline = timers();
    const source = handFed();
    const state: GuardState = { failure: undefined, broken: false, complete: false };
    const reader = guardBody(source.stream, 1000, 10_000, 60_000, 'too large', state, () => {}).getReader();
    source.push(100);
    assert.equal((await reader.read()).value?.byteLength, 100);
    const pending = reader.read();
    // What charged.ts does when the browser goes away mid-upload; the browser's last bytes then still arrive.
    state.broken = true;
    source.push(100);
    assert.equal(await within(pending, 2000), 'settled', 'the reader is not left waiting forever');
    await assert.rejects(pending);
    assert.equal(timers(), baseline, 'no watchdog interval is left running');
  });

  it('errors the stream at once when its signal aborts before the last byte (the browser left)', async () => {
    const baseline = timers();
    const source = handFed();
    const state: GuardState = { failure: undefined, broken: false, complete: false };
    const abort = new AbortController();
    const reader = guardBody(
      source.stream,
      1000,
      10_000,
      60_000,
      'too large',
      state,
      () => {},
      abort.signal,
    ).getReader();
    source.push(100);
    await reader.read();
    const pending = reader.read();
    abort.abort(new Error('client disconnected'));
    assert.equal(await within(pending, 2000), 'settled');
    await assert.rejects(pending, /client disconnected/);
    assert.equal(state.broken, true);
    await source.wasCancelled;
    assert.equal(timers(), baseline);
  });
});

describe('a streamed upload whose upstream answers without reading it all', () => {
  it("releases the browser's body and leaves no timer once the call is answered", async () => {
    const proxy = createProxy({
      // Reads one chunk, then refuses (as an upstream may before the body ends), never cancelling the body.
      upstream: async (request) => {
        await request.body!.getReader().read();
        return Response.json({ error: { code: 'invalid_request', message: 'No.' } }, { status: 400 });
      },
      keys: { video: 'v3_live_k' },
      secret: SECRET,
      authorize: () => null,
      log: () => {},
    });
    const token = await proxy.mintToken({ subject: 'early', capabilities: ['video'], budget: 100 });
    const baseline = timers();
    const source = handFed();
    source.push(1000);
    const r = await proxy.fetch(
      new Request('http://site/mediakit/api/v1/video-to-3d/jobs', {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'multipart/form-data; boundary=b',
          'content-length': '100000',
        },
        body: source.stream,
        duplex: 'half',
      } as RequestInit),
    );
    assert.equal(r.status, 400);
    await r.arrayBuffer();
    assert.equal(await within(source.wasCancelled, 2000), 'settled', "the browser's body is let go");
    await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(timers(), baseline, 'no watchdog interval is left running');
  });
});
