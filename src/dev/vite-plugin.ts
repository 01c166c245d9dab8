/**
 * `mediakitDev()`: a Vite plugin that mounts the development stack (sandbox + proxy, see
 * stack.ts) on the dev server, so a page served by Vite can use `<... endpoint="/mediakit">`
 * with no account and no other process.
 *
 * What the dev server serves stays its own:
 * - Vite's default CORS answers every localhost origin (any port), so another local app's page
 *   could read any file the dev server serves. Unless the config sets `server.cors` itself, the
 *   plugin grants CORS only to the dev server's own origin (a loopback name or its configured host,
 *   at the port it listens on) and to `server.origin` when one is set.
 * - The stack's kept results and its dev secret (`resultsDir`) go in `server.fs.deny` (beside
 *   Vite's own list), so `/@fs/` and every other route refuse them wherever they are. Keep them
 *   outside every folder the dev server serves anyway: `devCacheDir()` names one.
 * - A request path that is not valid percent-encoding (`/%c0%ae.html`) is answered 400 before
 *   Vite sees it: Vite's index.html middleware decodes such a path outside a try, and the
 *   rejection nobody handles ends the whole dev server (one `<img>` on any page could stop it).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import type { Plugin } from 'vite';
import { LOOPBACK_NAMES } from '../server/loopback.js';
import { createDevStack, type DevStack, type DevStackOptions } from './stack.js';

/**
 * Vite's own `server.fs.deny` (Vite 8), kept when the config names none: a plugin's list replaces
 * the default instead of adding to it.
 */
const VITE_FS_DENY = ['.env', '.env.*', '*.{crt,pem,key,p12,pfx,cer,der}', '.npmrc', '.yarnrc.yml', '**/.git/**'];

/** A path as a picomatch pattern that matches only itself (Vite matches fs.deny with picomatch). */
function literalGlob(path: string): string {
  return resolve(path)
    .replace(/\\/g, '/')
    .replace(/[*?[\]{}()!+@|^$]/g, (c) => `\\${c}`);
}

/** The folder and everything in it, as fs.deny patterns. */
function denyPatterns(folder: string): string[] {
  const glob = literalGlob(folder);
  return [glob, `${glob}/**`];
}

interface ServerAddress {
  port: number | undefined;
  host: string | undefined;
  https: boolean;
  origin: string | undefined;
}

/** True when `origin` is the dev server's own: http(s) as served, a loopback name or its host, its port. */
function ownOrigin(origin: string, server: ServerAddress): boolean {
  if (server.origin !== undefined && origin.toLowerCase() === server.origin.toLowerCase()) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.origin !== origin.toLowerCase() || server.port === undefined) return false;
  if (url.protocol !== (server.https ? 'https:' : 'http:')) return false;
  const port = url.port === '' ? (server.https ? 443 : 80) : Number(url.port);
  if (port !== server.port) return false;
  const host = server.host?.includes(':') ? `[${server.host}]` : server.host;
  return LOOPBACK_NAMES.has(url.hostname) || (host !== undefined && url.hostname === host.toLowerCase());
}

/** Answers 400 to a request whose path (before `?` or `#`) does not percent-decode. */
function refuseUndecodable(req: IncomingMessage, res: ServerResponse, next: () => void): void {
  try {
    decodeURIComponent((req.url ?? '/').replace(/[?#].*$/s, ''));
  } catch {
    res
      .writeHead(400, { 'content-type': 'text/plain; charset=utf-8' })
      .end('The request path is not valid percent-encoding.');
    return;
  }
  next();
}

export function mediakitDev(options: DevStackOptions = {}): Plugin {
  let stack: DevStack | undefined;
  const getStack = () => (stack ??= createDevStack(options));
  const address: ServerAddress = { port: undefined, host: undefined, https: false, origin: undefined };

  return {
    name: 'mediakit-dev',
    /** `stack()`: the development stack this plugin mounts (made on first use). */
    api: { stack: getStack },
    config(config, env) {
      if (env.command !== 'serve' || env.isPreview) return;
      // Set on the config itself: a returned list would be appended to the config's, and a list set
      // by no one would lose Vite's defaults.
      const server = (config.server ??= {});
      const dir = getStack().resultsDir;
      server.fs = { ...server.fs, deny: [...(server.fs?.deny ?? VITE_FS_DENY), ...(dir ? denyPatterns(dir) : [])] };
      // A config that chose its own CORS keeps it; a second mediakitDev() finds the check installed.
      if (server.cors === undefined) {
        server.cors = {
          // The cors package reads a null error as none; Vite's type names only Error.
          origin: (requestOrigin, callback) =>
            callback(null as unknown as Error, requestOrigin !== undefined && ownOrigin(requestOrigin, address)),
        };
      }
    },
    configureServer(server) {
      const stack = getStack();
      const { config } = server;
      address.https = Boolean(config.server.https);
      address.origin = config.server.origin;
      address.host = typeof config.server.host === 'string' ? config.server.host : undefined;
      server.middlewares.use(refuseUndecodable);
      server.middlewares.use(stack.middleware);
      server.httpServer?.once('listening', () => {
        const bound = server.httpServer?.address();
        if (bound && typeof bound === 'object') address.port = bound.port;
        setTimeout(() => server.config.logger.info(`  ${stack.describe()}`), 0);
      });
    },
  };
}
