/**
 * The operations `npm run bench -- sandbox-browser` times, written once for both platforms: Node
 * runs them against `createSandbox`, Chromium against `createBrowserSandbox` in the page
 * (sandbox-browser-page.ts), so both get the same requests built the same way. Platform-free: no
 * node: imports. Each times only `sandbox.fetch` and the reading of its answer (performance.now
 * where it runs), never the account set-up or the building of the request.
 */

export interface BenchSandbox {
  fetch(request: Request): Promise<Response>;
  idle(): Promise<void>;
}

export interface Timed {
  ms: number;
  detail: string;
}

export interface JobTimed {
  /** Creation to the first poll that answers succeeded (polled every POLL_MS). */
  succeededMs: number;
  /** Creation to the end of the background work (GLB, stats and turntable MP4 built). */
  artifactMs: number;
  /** Creation to the turntable MP4 read whole (read after succeeded). */
  mp4Ms: number;
  mp4Bytes: number;
  glbBytes: number;
}

export type JobBody = Record<string, unknown>;

/** Any origin: the handler reads only the path. */
const ORIGIN = 'http://sandbox.bench';
export const POLL_MS = 50;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function keys(s: BenchSandbox): Promise<Record<string, string>> {
  const r = await s.fetch(
    new Request(ORIGIN + '/__sandbox/accounts', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"credits":1000}',
    }),
  );
  if (r.status !== 201 && r.status !== 200) throw new Error(`account: ${r.status} ${await r.text()}`);
  return ((await r.json()) as { keys: Record<string, string> }).keys;
}

function imageForm(bytes: Uint8Array, name: string): FormData {
  const form = new FormData();
  form.set('image_file', new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'image/jpeg' }), name);
  return form;
}

/** A fresh account's key of this capability (each run gets its own, so no rate limit is near). */
export async function keyFor(s: BenchSandbox, capability: 'headshot' | 'imageTools' | 'generate'): Promise<string> {
  return (await keys(s))[capability]!;
}

export function headshotRequest(key: string, selfie: Uint8Array): Request {
  return new Request(ORIGIN + '/api/v1/headshot', {
    method: 'POST',
    headers: { authorization: `Bearer ${key}` },
    body: imageForm(selfie, 'selfie.jpg'),
  });
}

export function imageToolRequest(key: string, photo: Uint8Array): Request {
  return new Request(ORIGIN + '/api/v1', {
    method: 'POST',
    headers: { authorization: `Bearer ${key}` },
    body: imageForm(photo, 'photo.jpg'),
  });
}

/** Checks a headshot answer: 200 and four succeeded PNG variants. */
export function checkHeadshots(status: number, body: any): string {
  const variants = (body?.data?.variants ?? []) as { status: string; image_base64?: string }[];
  const ok = variants.filter((v) => v.status === 'succeeded');
  if (status !== 200 || ok.length !== 4) throw new Error(`headshots: ${status} ${JSON.stringify(body).slice(0, 300)}`);
  return `4 PNGs, ${Math.round(ok.reduce((n, v) => n + (v.image_base64?.length ?? 0), 0) / 1024)} KiB base64`;
}

/** Checks an image-tool answer: 200 and a PNG. */
export function checkCutout(status: number, type: string | null, bytes: Uint8Array): string {
  if (status !== 200 || type !== 'image/png' || bytes[1] !== 0x50)
    throw new Error(`image tool: ${status} ${type} ${new TextDecoder().decode(bytes.subarray(0, 300))}`);
  return `PNG, ${Math.round(bytes.byteLength / 1024)} KiB`;
}

/** A batch of 4 headshot variants (the default) from one selfie, as multipart. */
export async function headshotBatch(s: BenchSandbox, selfie: Uint8Array): Promise<Timed> {
  const request = headshotRequest(await keyFor(s, 'headshot'), selfie);
  const t = performance.now();
  const r = await s.fetch(request);
  const body = await r.json();
  const ms = performance.now() - t;
  return { ms, detail: checkHeadshots(r.status, body) };
}

/** Background removal (the defaults: size auto, PNG) of one photo, as multipart. */
export async function imageTool(s: BenchSandbox, photo: Uint8Array): Promise<Timed> {
  const request = imageToolRequest(await keyFor(s, 'imageTools'), photo);
  const t = performance.now();
  const r = await s.fetch(request);
  const bytes = new Uint8Array(await r.arrayBuffer());
  const ms = performance.now() - t;
  return { ms, detail: checkCutout(r.status, r.headers.get('content-type'), bytes) };
}

/** `POST /api/v1/3d/jobs`, then polls until succeeded and reads the turntable MP4. */
export async function modelJob(s: BenchSandbox, body: JobBody): Promise<JobTimed> {
  const key = await keyFor(s, 'generate');
  const auth = { authorization: `Bearer ${key}` };
  const request = new Request(ORIGIN + '/api/v1/3d/jobs', {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const t = performance.now();
  const created = await s.fetch(request);
  if (created.status !== 202) throw new Error(`3D job: ${created.status} ${await created.text()}`);
  await created.arrayBuffer();
  let artifactMs = NaN;
  const background = s.idle().then(() => (artifactMs = performance.now() - t));
  const location = created.headers.get('location')!;
  let output: { turntable_url: string; model_url: string };
  for (;;) {
    const r = await s.fetch(new Request(ORIGIN + location, { headers: auth }));
    const data = ((await r.json()) as { data: { status: string; output: typeof output; error: unknown } }).data;
    if (data.status === 'succeeded') {
      output = data.output;
      break;
    }
    if (data.status === 'failed') throw new Error(`3D job failed: ${JSON.stringify(data.error)}`);
    await sleep(POLL_MS);
  }
  const succeededMs = performance.now() - t;
  const mp4 = new Uint8Array(await (await s.fetch(new Request(new URL(output.turntable_url, ORIGIN)))).arrayBuffer());
  const mp4Ms = performance.now() - t;
  if (new TextDecoder().decode(mp4.subarray(4, 8)) !== 'ftyp') throw new Error('3D job: the turntable is no MP4');
  const glb = await (await s.fetch(new Request(new URL(output.model_url, ORIGIN)))).arrayBuffer();
  await background;
  return { succeededMs, artifactMs, mp4Ms, mp4Bytes: mp4.byteLength, glbBytes: glb.byteLength };
}
