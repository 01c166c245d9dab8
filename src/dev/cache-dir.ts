/**
 * `devCacheDir(projectRoot)`: a folder of this machine's user cache kept for one project, for what
 * the dev stack keeps across restarts (kept results and the dev secret beside them). It lies
 * outside the project, so no dev server that serves the project's files (Vite's root, its
 * `server.fs.allow`, `/@fs/`) serves it.
 */
import { createHash } from 'node:crypto';
import { homedir, tmpdir } from 'node:os';
import { basename, isAbsolute, join, resolve } from 'node:path';

/** The user's cache folder: XDG_CACHE_HOME, the platform's own, or the temporary folder. */
function userCache(env: Record<string, string | undefined>): string {
  const xdg = env['XDG_CACHE_HOME'];
  if (xdg && isAbsolute(xdg)) return xdg;
  let home: string | undefined;
  try {
    home = homedir();
  } catch {
    home = undefined;
  }
  if (process.platform === 'win32' && env['LOCALAPPDATA']) return env['LOCALAPPDATA'];
  if (!home) return tmpdir();
  return process.platform === 'darwin' ? join(home, 'Library', 'Caches') : join(home, '.cache');
}

/**
 * `<user cache>/mediakit/<project folder name>-<hash of its path>`: one per project, the same after
 * a restart. Pass a folder inside it as `resultsDir`.
 */
export function devCacheDir(projectRoot: string, env: Record<string, string | undefined> = process.env): string {
  const root = resolve(projectRoot);
  const name =
    basename(root)
      .replace(/[^A-Za-z0-9._-]/g, '_')
      .slice(0, 40) || 'project';
  const hash = createHash('sha256').update(root).digest('hex').slice(0, 12);
  return join(userCache(env), 'mediakit', `${name}-${hash}`);
}
