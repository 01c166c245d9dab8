/**
 * Whether a request's Host header names this machine. A page on a DNS name that an attacker
 * rebinds to 127.0.0.1 reaches a local server with its own name in Host (and a matching Origin),
 * so a local server's control routes answer only loopback names and the address the request came
 * in on. Shared by the dev stack's control-plane gate (src/dev) and the standalone sandbox's CLI.
 */
import type { IncomingMessage } from 'node:http';

export const LOOPBACK_NAMES: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The Host header's name when it is this machine's own (a loopback name or the socket's address), else undefined. */
export function loopbackHost(req: IncomingMessage): string | undefined {
  const host = req.headers.host ?? '';
  if (!/^[A-Za-z0-9.:[\]-]{1,300}$/.test(host)) return undefined;
  let hostname: string;
  try {
    hostname = new URL(`http://${host}`).hostname;
  } catch {
    return undefined;
  }
  const local = req.socket.localAddress ?? '';
  const own = local.includes(':') ? `[${local}]` : local;
  return LOOPBACK_NAMES.has(hostname) || hostname === own ? hostname : undefined;
}
