/**
 * The IndexedDB databases of job records (idb-keyval stores), apart from stored-data.ts so that
 * MediaClient alone (bg-tool, headshot-studio) never bundles idb-keyval.
 */
import { createStore, type UseStore } from 'idb-keyval';
import { JOB_DATABASE } from './stored-names.js';

/** Every JobStore database this page opened, so a purge reaches the ones with custom names too. */
export const openedDatabases = new Map<string, UseStore>();

/** The idb-keyval store of a job database: one connection per database per page. */
export function jobDatabase(name = JOB_DATABASE): UseStore {
  let db = openedDatabases.get(name);
  if (!db) openedDatabases.set(name, (db = createStore(name, 'jobs')));
  return db;
}
