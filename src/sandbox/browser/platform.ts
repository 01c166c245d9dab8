/**
 * The sandbox's browser platform: uploads kept as Blobs, image URLs fetched with the
 * browser's fetch, and the artifact makers on createImageBitmap, OffscreenCanvas and WebCodecs
 * (through mediabunny). It runs in a window, a Worker or a Service Worker: no DOM.
 *
 * Where the browser cannot do what Node does, the answer says so instead of differing silently:
 * a video whose codec the browser cannot decode makes a scene coloured from the video's digest
 * (the scene's `source` is `digest`, exactly as Node without ffmpeg), and an image URL is readable
 * only when its server allows cross-origin reads (the error says so).
 */
import { readCapped, remoteUrlProblem } from '../../api/index.js';
import type { SandboxPlatform } from '../platform.js';
import { imageUrlFailures, parseImageUrl } from '../remote-url.js';
import { sha256 } from '../sha256.js';
import { fail } from '../http.js';
import {
  buildRelief,
  decodeSize,
  encodePng,
  glbStats,
  removeBackground,
  renderHeadshot,
  renderReference,
  runImageTool,
} from './images.js';
import { blobWriter } from './upload.js';
import { buildScene, encodeTurntable, videoSource } from './video.js';

/** An image URL through the browser's fetch: the URL's text is checked (the browser resolves names itself). */
async function fetchImage(
  raw: string,
  field: string,
  o: Parameters<SandboxPlatform['fetchImage']>[2],
): Promise<Uint8Array> {
  const { unreachable, tooLarge } = imageUrlFailures(field, o.maxBytes);
  const url = parseImageUrl(raw, field);
  if (remoteUrlProblem(url.href) && !o.allowLoopback) unreachable();
  let response: Response;
  try {
    // Redirects are followed by the browser (a manual redirect is opaque here); the final URL is checked below.
    response = await (o.fetch ?? fetch)(url, { signal: AbortSignal.timeout(o.timeoutMs), mode: 'cors' });
  } catch {
    fail(
      'invalid_request',
      `${field} could not be fetched. The sandbox in the browser can read only image URLs whose server allows cross-origin reads (CORS); send the image bytes instead.`,
    );
  }
  if (response.url && remoteUrlProblem(response.url) && !o.allowLoopback) unreachable();
  if (!response.ok) unreachable();
  const length = response.headers.get('content-length');
  if (length !== null && Number(length) > o.maxBytes) tooLarge();
  return readCapped(response.body, o.maxBytes, tooLarge, unreachable);
}

export function browserPlatform(): SandboxPlatform {
  return {
    name: 'browser',
    sha256,
    spool: async () => blobWriter(),
    sweep: async () => undefined,
    fetchImage,
    videoSource,
    decodeSize,
    removeBackground,
    encodePng,
    renderHeadshot,
    runImageTool,
    renderReference,
    buildRelief,
    encodeTurntable,
    buildScene,
    glbStats,
  };
}
