/**
 * Video work the playground's Service Worker cannot do: WebCodecs exists in windows and dedicated
 * workers, not in a Service Worker. The worker asks a page it controls (`ask`), and the page's
 * playground module answers with the browser platform's makers (`answerCodecCalls`), loaded only
 * when the first such call comes. With no page to ask, the worker makes what it can itself: a
 * scene coloured from the video's digest (the scene says `source: 'digest'`).
 */
import type { SceneArtifact, SceneInput, SceneOptions, TurntableOptions, ReliefFace } from '../sandbox/platform.js';

export const CODEC_MESSAGE = 'mediakit-playground-codec';

/** What crosses to the page: a spooled upload travels as its Blob. */
export type CodecCall =
  | { call: 'buildScene'; input: Omit<SceneInput, 'video'> & { video: Uint8Array | Blob }; options: SceneOptions }
  | { call: 'encodeTurntable'; faces: readonly ReliefFace[]; options: TurntableOptions };

interface WindowClientLike {
  postMessage(message: unknown, transfer: Transferable[]): void;
}

/** Asks one page to run `call`; rejects when it does not answer within `timeoutMs`. */
export function ask<T>(client: WindowClientLike, call: CodecCall, timeoutMs = 120_000): Promise<T> {
  const channel = new MessageChannel();
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      channel.port1.close();
      reject(new Error('the page did not answer'));
    }, timeoutMs);
    channel.port1.onmessage = (event: MessageEvent<{ value?: T; error?: string }>) => {
      clearTimeout(timer);
      channel.port1.close();
      if (event.data.error !== undefined) reject(new Error(event.data.error));
      else resolve(event.data.value as T);
    };
    client.postMessage({ type: CODEC_MESSAGE, ...call }, [channel.port2]);
  });
}

/** In a page: answers the worker's codec calls. */
export function answerCodecCalls(container: ServiceWorkerContainer): void {
  container.addEventListener('message', (event: MessageEvent) => {
    const data = event.data as ({ type?: string } & CodecCall) | null;
    const port = event.ports[0];
    if (data?.type !== CODEC_MESSAGE || !port) return;
    void run(data).then(
      (value) => port.postMessage({ value }),
      (err: unknown) => port.postMessage({ error: err instanceof Error ? err.message : String(err) }),
    );
  });
  container.startMessages();
}

async function run(data: CodecCall): Promise<SceneArtifact | Uint8Array> {
  const video = await import('../sandbox/browser/video.js');
  if (data.call === 'encodeTurntable') return video.encodeTurntable(data.faces, data.options);
  const { BlobUpload } = await import('../sandbox/browser/upload.js');
  const source = data.input.video;
  const upload =
    source instanceof Blob
      ? new BlobUpload(source, 'video', source.type, source.size, data.input.sha256, new Uint8Array(0))
      : source;
  return video.buildScene({ ...data.input, video: upload }, data.options);
}
