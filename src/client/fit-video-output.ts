/**
 * Where a conversion's MP4 is written as it is made: a new file in the private folder, else Blob
 * parts the browser keeps on disk. Never the whole file in memory.
 */
import { Mp4OutputFormat, Output, StreamTarget, type StreamTargetChunk } from 'mediabunny';

/**
 * A writable for StreamTarget that keeps what it is given as Blob parts (the browser moves large
 * Blobs to disk): appended parts, and the few writes below the end (box sizes patched at the end)
 * applied over them when the file is read.
 */
function blobParts(): { writable: WritableStream<StreamTargetChunk>; file: (name: string) => File } {
  const parts: Blob[] = [];
  const patches: { position: number; data: Blob }[] = [];
  let end = 0;
  const writable = new WritableStream<StreamTargetChunk>({
    write({ data, position }) {
      if (position === end) {
        parts.push(new Blob([data]));
        end += data.byteLength;
      } else if (position > end) {
        parts.push(new Blob([new Uint8Array(position - end), data]));
        end = position + data.byteLength;
      } else patches.push({ position, data: new Blob([data]) });
    },
  });
  const file = (name: string) => {
    let blob = new Blob(parts);
    for (const { position, data } of patches) {
      const after = position + data.size;
      blob = new Blob([blob.slice(0, position), data, after < blob.size ? blob.slice(after) : new Blob()]);
    }
    return new File([blob], name, { type: 'video/mp4' });
  };
  return { writable, file };
}

export interface Written {
  output: Output;
  /** The written video, read from disk (or from its Blob parts). */
  file(): Promise<File>;
  drop(): Promise<void>;
}

/** An MP4 output written as it is made: into a new file of the private folder `dir`, else into Blob parts. */
export async function written(dir: FileSystemDirectoryHandle | undefined, name: string): Promise<Written> {
  const stored = `${Date.now().toString(36)}-${crypto.randomUUID()}.mp4`;
  const handle = dir ? await dir.getFileHandle(stored, { create: true }) : undefined;
  const parts = handle ? undefined : blobParts();
  const writable = handle
    ? ((await handle.createWritable()) as unknown as WritableStream<StreamTargetChunk>)
    : parts!.writable;
  const output = new Output({
    // The index goes at the end (no fast start): the whole file is never held in memory to move it.
    format: new Mp4OutputFormat({ fastStart: false }),
    target: new StreamTarget(writable, { chunked: true, chunkSize: 4 * 1024 * 1024 }),
  });
  return {
    output,
    file: async () => {
      if (!handle) return parts!.file(name);
      const onDisk = await handle.getFile();
      return new File([onDisk], name, { type: 'video/mp4', lastModified: onDisk.lastModified });
    },
    drop: async () => {
      if (handle) await dir!.removeEntry(stored).catch(() => undefined);
    },
  };
}
