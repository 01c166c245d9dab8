/**
 * The chosen video's copy in the origin's private file system while it converts, so a reload during
 * the conversion can start it again without asking for the file, and the clean-up of what earlier
 * conversions left there.
 */
import { CONVERTED_DIR } from './stored-names.js';

/** The private folder conversions write to; undefined where the page has no such file system. */
export async function privateDir(): Promise<FileSystemDirectoryHandle | undefined> {
  try {
    const root = await navigator.storage.getDirectory();
    return await root.getDirectoryHandle(CONVERTED_DIR, { create: true });
  } catch {
    // No origin private file system here (an opaque origin, storage refused): Blob parts instead.
    return undefined;
  }
}

/** The prefix of a chosen video kept while it converts (so a reload can start the conversion again). */
const CHOSEN = 'chosen-';

/** Deletes converted videos left in the origin's private file system (an earlier conversion's, sent or abandoned), but `keep` and chosen videos. */
export async function dropConverted(keep?: string): Promise<void> {
  const dir = await privateDir();
  if (!dir) return;
  for await (const name of (dir as unknown as { keys(): AsyncIterable<string> }).keys())
    if (name !== keep && !name.startsWith(CHOSEN)) await dir.removeEntry(name).catch(() => undefined);
}

/**
 * Copies the chosen video into the origin's private file system while it converts, streamed (a
 * few chunks in memory at a time), so a reload during the conversion can start it again without
 * asking for the file. Resolves with the copy's name once it is whole; undefined where there is no
 * such file system or the copy failed (a full disk): then a reload asks for the file again.
 */
export async function keepChosen(file: Blob, signal: AbortSignal): Promise<string | undefined> {
  const dir = await privateDir();
  if (!dir) return undefined;
  const name = `${CHOSEN}${crypto.randomUUID()}`;
  try {
    const handle = await dir.getFileHandle(name, { create: true });
    await file.stream().pipeTo(await handle.createWritable(), { signal });
    return name;
  } catch {
    await dir.removeEntry(name).catch(() => undefined);
    return undefined;
  }
}

/** The chosen video kept as `stored`, as a File named `name`; undefined when it is gone. */
export async function keptChosen(stored: string, name: string, type: string): Promise<File | undefined> {
  if (!stored.startsWith(CHOSEN)) return undefined;
  try {
    const dir = await privateDir();
    const onDisk = await (await dir?.getFileHandle(stored))?.getFile();
    return onDisk && new File([onDisk], name, { type, lastModified: onDisk.lastModified });
  } catch {
    return undefined;
  }
}

/** Deletes the kept chosen video `stored` (or every one): its conversion ended, was cancelled, or cannot start again. */
export async function dropChosen(stored?: string): Promise<void> {
  const dir = await privateDir();
  if (!dir) return;
  for await (const name of (dir as unknown as { keys(): AsyncIterable<string> }).keys())
    if (name.startsWith(CHOSEN) && (stored === undefined || name === stored))
      await dir.removeEntry(name).catch(() => undefined);
}
