/**
 * The page side of `npm run bench -- sandbox-browser` (bundled by esbuild in sandbox-browser.ts):
 * the browser sandbox at its defaults (clock x12) and the operations of sandbox-ops.ts, timed in
 * the page. `wire*` also answer the way test/sandbox/browser-bridge.ts does (bytes in and out as
 * base64), so Node can time a call including the Node-page transfer.
 */
import { createBrowserSandbox } from '../../src/sandbox/browser/index.js';
import {
  checkCutout,
  checkHeadshots,
  headshotBatch,
  headshotRequest,
  imageTool,
  imageToolRequest,
  keyFor,
  modelJob,
  type JobBody,
} from './sandbox-ops.js';

const sandbox = createBrowserSandbox();
const inputs: Record<string, Uint8Array> = {};

const fromBase64 = (b64: string) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

const bench = {
  setInput(name: string, b64: string): void {
    inputs[name] = fromBase64(b64);
  },
  headshotBatch: () => headshotBatch(sandbox, inputs['selfie']!),
  imageTool: () => imageTool(sandbox, inputs['photo']!),
  modelJob: (body: JobBody) => modelJob(sandbox, body),
  key: (capability: 'headshot' | 'imageTools') => keyFor(sandbox, capability),
  /** A headshot batch as the bridge carries it: the selfie arrives as base64, the answer leaves as base64. */
  async wireHeadshots(key: string, selfie: string): Promise<{ status: number; body: string }> {
    const r = await sandbox.fetch(headshotRequest(key, fromBase64(selfie)));
    const bytes = new Uint8Array(await r.arrayBuffer());
    checkHeadshots(r.status, JSON.parse(new TextDecoder().decode(bytes)));
    return { status: r.status, body: toBase64(bytes) };
  },
  async wireImageTool(key: string, photo: string): Promise<{ status: number; body: string }> {
    const r = await sandbox.fetch(imageToolRequest(key, fromBase64(photo)));
    const bytes = new Uint8Array(await r.arrayBuffer());
    checkCutout(r.status, r.headers.get('content-type'), bytes);
    return { status: r.status, body: toBase64(bytes) };
  },
};

(globalThis as { bench?: typeof bench }).bench = bench;
export type PageBench = typeof bench;
