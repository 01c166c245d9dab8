/**
 * The databases of job records: IndexedDB (idb-keyval stores) where the browser allows it, else a
 * map in memory for this page only. Apart from stored-data.ts so that MediaClient alone (bg-tool,
 * headshot-studio) never bundles idb-keyval.
 *
 * Which one a database is gets decided once, by its first open: an opaque origin (a sandboxed
 * frame), blocked storage or a private mode makes `indexedDB.open()` throw or fail, and the
 * records then live in memory behind the same API, so the elements work, only without surviving
 * a reload. `storageAvailable()` tells an element so (the uploader warns that a reload loses the
 * upload).
 */
import { clear, createStore, del, delMany, entries, get, keys, set, update, type UseStore } from 'idb-keyval';
import { idbFactory, warnNothingStored } from './device-storage.js';
import { JOB_DATABASE } from './stored-names.js';

/**
 * The longest wait for IndexedDB to open. It answers in milliseconds, but some browsers have left
 * an open unanswered (Safari 14's first open of a page): past this the page keeps its records in
 * memory rather than leave every element waiting forever.
 */
const OPEN_TIMEOUT_MS = 10_000;

/**
 * Opens (creating) the database once to learn whether the browser allows it: undefined when it
 * does, else why not (refused, failed or no answer). Never rejects.
 */
function refusal(name: string): Promise<unknown> {
  return new Promise((resolve) => {
    const factory = idbFactory();
    if (!factory) return resolve('no IndexedDB');
    let request: IDBOpenDBRequest;
    try {
      request = factory.open(name);
    } catch (err) {
      // Chromium's opaque origins throw a SecurityError here, synchronously.
      return resolve(err);
    }
    const timer = setTimeout(resolve, OPEN_TIMEOUT_MS, 'IndexedDB did not answer');
    request.onupgradeneeded = () => request.result.createObjectStore('jobs');
    request.onsuccess = () => {
      clearTimeout(timer);
      // idb-keyval keeps its own connection (and opens it again when the browser closes it). One
      // that came after the timeout is closed too: the page keeps its records in memory by then.
      request.result.close();
      resolve(undefined);
    };
    request.onerror = (e) => {
      clearTimeout(timer);
      // Handled here: unprevented, Firefox also reports it as an uncaught error.
      e.preventDefault();
      resolve(request.error ?? 'IndexedDB failed');
    };
  });
}

/** Values go into and out of memory as copies, as IndexedDB's do: no caller shares a stored record. */
const copy = <T>(value: T): T => structuredClone(value);

type Backend = UseStore | Map<IDBValidKey, unknown>;

/** The key-value operations the job store and the purge use, on IndexedDB or on this page's memory. */
export class JobDatabase {
  readonly name: string;
  #backend: Promise<Backend> | undefined;

  constructor(name: string) {
    this.name = name;
  }

  /** True when the records go to IndexedDB, false when this page keeps them in memory. Never rejects. */
  async persistent(): Promise<boolean> {
    return !((await this.#open()) instanceof Map);
  }

  async get<T>(key: IDBValidKey): Promise<T | undefined> {
    const b = await this.#open();
    return b instanceof Map ? copy(b.get(key) as T | undefined) : get<T>(key, b);
  }

  async set(key: IDBValidKey, value: unknown): Promise<void> {
    const b = await this.#open();
    return b instanceof Map ? void b.set(key, copy(value)) : set(key, value, b);
  }

  /** Read-modify-write in one step: one transaction, or one synchronous step in memory. */
  async update<T>(key: IDBValidKey, change: (old: T | undefined) => T): Promise<void> {
    const b = await this.#open();
    return b instanceof Map ? void b.set(key, copy(change(copy(b.get(key) as T | undefined)))) : update(key, change, b);
  }

  async del(key: IDBValidKey): Promise<void> {
    const b = await this.#open();
    return b instanceof Map ? void b.delete(key) : del(key, b);
  }

  async delMany(list: IDBValidKey[]): Promise<void> {
    const b = await this.#open();
    return b instanceof Map ? list.forEach((k) => b.delete(k)) : delMany(list, b);
  }

  async keys(): Promise<IDBValidKey[]> {
    const b = await this.#open();
    return b instanceof Map ? [...b.keys()] : keys(b);
  }

  async entries<T>(): Promise<[IDBValidKey, T][]> {
    const b = await this.#open();
    return b instanceof Map ? copy([...b] as [IDBValidKey, T][]) : entries<IDBValidKey, T>(b);
  }

  async clear(): Promise<void> {
    const b = await this.#open();
    return b instanceof Map ? b.clear() : clear(b);
  }

  /** On first use (a page that only logs out creates no database), once. */
  #open(): Promise<Backend> {
    return (this.#backend ??= refusal(this.name).then((why) => {
      if (why === undefined) return createStore(this.name, 'jobs');
      warnNothingStored(why);
      return new Map();
    }));
  }
}

/** Every JobStore database this page opened, so a purge reaches the ones with custom names too. */
export const openedDatabases = new Map<string, JobDatabase>();

/** A job database: one per name per page (one connection, or one map in memory). */
export function jobDatabase(name = JOB_DATABASE): JobDatabase {
  let db = openedDatabases.get(name);
  if (!db) openedDatabases.set(name, (db = new JobDatabase(name)));
  return db;
}

/**
 * Whether this browser keeps jobs for this page: false where IndexedDB cannot be opened (an
 * opaque-origin sandboxed frame, blocked storage, some private modes). Jobs then live in this
 * page's memory, so a reload loses them, and an upload in progress. Asks once per page, by
 * opening the default job database (the one the elements use); never rejects.
 */
export function storageAvailable(): Promise<boolean> {
  return jobDatabase().persistent();
}
