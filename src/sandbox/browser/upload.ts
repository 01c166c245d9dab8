/**
 * The browser's spool: a file part is collected as Blob slices (the browser keeps large Blobs on
 * disk, not in the page's heap), so a 500 MB walkthrough costs the Service Worker little memory.
 */
import type { Upload, UploadWriter } from '../platform.js';

/** An upload stored in a Blob. */
export class BlobUpload implements Upload {
  kept = false;
  #blob: Blob | undefined;
  constructor(
    blob: Blob,
    readonly name: string,
    readonly type: string,
    readonly size: number,
    readonly sha256: Uint8Array,
    readonly head: Uint8Array,
  ) {
    this.#blob = blob;
  }

  /** The stored bytes; throws once disposed. */
  get blob(): Blob {
    if (!this.#blob) throw new Error('The upload was disposed.');
    return this.#blob;
  }

  async bytes(): Promise<Uint8Array> {
    return new Uint8Array(await this.blob.arrayBuffer());
  }

  async dispose(): Promise<void> {
    this.#blob = undefined;
  }
}

/** Collects one part's chunks; `finish` makes the Blob. */
export function blobWriter(): UploadWriter {
  let parts: BlobPart[] = [];
  // Small chunks are joined into Blobs of about 4 MB so a long upload is not a million tiny parts.
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  const flush = () => {
    if (pending.length) parts.push(new Blob(pending as Uint8Array<ArrayBuffer>[]));
    pending = [];
    pendingBytes = 0;
  };
  return {
    async write(chunk) {
      pending.push(chunk.slice());
      pendingBytes += chunk.byteLength;
      if (pendingBytes >= 4 * 1024 * 1024) flush();
    },
    async finish(meta) {
      flush();
      const blob = new Blob(parts, { type: meta.type });
      parts = [];
      return new BlobUpload(blob, meta.name, meta.type, meta.size, meta.sha256, meta.head);
    },
    async abort() {
      parts = [];
      pending = [];
    },
  };
}
