/**
 * Where the dev stack's kept results go, and the dev secret kept beside persistent ones, so that
 * kept results and their owners outlive a restart. A temporary folder goes when the process exits.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** Temporary folders to remove at exit. */
const TEMPORARY = new Set<string>();

/** The kept-results folder: the one asked for, or a temporary one removed at exit (created on the first keep). */
export function resultsFolder(option: string | false | undefined): string | undefined {
  if (option === false) return undefined;
  if (option) return resolve(option);
  const dir = join(tmpdir(), `mediakit-results-${process.pid}-${randomUUID().slice(0, 8)}`);
  // One exit listener for every stack of the process (a test runner starts a dozen).
  if (TEMPORARY.size === 0)
    process.once('exit', () => {
      for (const d of TEMPORARY) rmSync(d, { recursive: true, force: true });
    });
  TEMPORARY.add(dir);
  return dir;
}

/** The dev secret kept beside persistent results (made once, owner-readable only). */
export function devSecret(dir: string): string {
  const file = join(dir, '.secret');
  try {
    const kept = readFileSync(file, 'utf8').trim();
    if (/^[0-9a-f]{64}$/.test(kept)) return kept;
  } catch {
    // None yet: made below.
  }
  const secret = randomBytes(32).toString('hex');
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, secret + '\n', { mode: 0o600 });
  return secret;
}
