/**
 * Which hosts a remote image URL (`image_url`, 3D `images`) may name: public internet hosts only.
 * One rule for the proxy (before forwarding) and the sandbox (after DNS, on every redirect hop).
 *
 * Refused: anything but http(s); credentials in the URL; `localhost` and `*.localhost`;
 * single-label names; `.local`, `.internal`, `.localdomain`, `.home.arpa` names; and IP addresses in
 * loopback, private (RFC 1918), link-local, CGNAT (100.64/10), "this network", benchmarking,
 * documentation, multicast and reserved ranges, IPv6 loopback/unspecified, ULA (fc00::/7),
 * link-local (fe80::/10), multicast, and IPv4-mapped, IPv4-compatible, IPv4-translated, NAT64 and
 * 6to4 addresses that embed a refused IPv4 address.
 */

const V4_BLOCKED: [number, number][] = [
  [0x00000000, 8], // 0.0.0.0/8 "this network"
  [0x0a000000, 8], // 10/8
  [0x64400000, 10], // 100.64/10 CGNAT
  [0x7f000000, 8], // loopback
  [0xa9fe0000, 16], // link-local
  [0xac100000, 12], // 172.16/12
  [0xc0000000, 24], // 192.0.0/24 IETF
  [0xc0000200, 24], // TEST-NET-1
  [0xc0a80000, 16], // 192.168/16
  [0xc6120000, 15], // 198.18/15 benchmarking
  [0xc6336400, 24], // TEST-NET-2
  [0xcb007100, 24], // TEST-NET-3
  [0xe0000000, 4], // multicast
  [0xf0000000, 4], // reserved, broadcast
];

function v4(text: string): number | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (!m) return undefined;
  const parts = m.slice(1).map(Number);
  if (parts.some((p) => p > 255)) return undefined;
  return ((parts[0]! << 24) >>> 0) + (parts[1]! << 16) + (parts[2]! << 8) + parts[3]!;
}

function v4Blocked(n: number): boolean {
  return V4_BLOCKED.some(([base, bits]) => (bits === 0 ? true : n >>> (32 - bits) === base >>> (32 - bits)));
}

/** The 8 groups of an IPv6 literal (brackets removed), or undefined. */
function v6(text: string): number[] | undefined {
  let s = text.toLowerCase();
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  const lastColon = s.lastIndexOf(':');
  if (lastColon < 0) return undefined;
  const last = s.slice(lastColon + 1);
  if (last.includes('.')) {
    const n = v4(last);
    if (n === undefined) return undefined;
    s = s.slice(0, lastColon + 1) + (n >>> 16).toString(16) + ':' + (n & 0xffff).toString(16);
  }
  if (!/^[0-9a-f:]+$/.test(s)) return undefined;
  const halves = s.split('::');
  if (halves.length > 2) return undefined;
  const parse = (h: string) =>
    h === '' ? [] : h.split(':').map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : NaN));
  const head = parse(halves[0]!);
  let groups: number[];
  if (halves.length === 2) {
    const rest = parse(halves[1]!);
    const fill = 8 - head.length - rest.length;
    if (fill < 1) return undefined;
    groups = [...head, ...new Array<number>(fill).fill(0), ...rest];
  } else groups = head;
  if (groups.length !== 8 || groups.some((g) => Number.isNaN(g))) return undefined;
  return groups;
}

function v6Blocked(g: number[]): boolean {
  const embedded = (hi: number, lo: number) => v4Blocked(((hi << 16) >>> 0) + lo);
  if (g.every((x) => x === 0)) return true; // ::
  if (g.slice(0, 7).every((x) => x === 0) && g[7] === 1) return true; // ::1
  if ((g[0]! & 0xfe00) === 0xfc00) return true; // fc00::/7 ULA
  if ((g[0]! & 0xffc0) === 0xfe80) return true; // fe80::/10 link-local
  if ((g[0]! & 0xffc0) === 0xfec0) return true; // fec0::/10 site-local (deprecated)
  if ((g[0]! & 0xff00) === 0xff00) return true; // multicast
  if (g.slice(0, 5).every((x) => x === 0) && (g[5] === 0xffff || g[5] === 0)) return embedded(g[6]!, g[7]!); // ::ffff:a.b.c.d, ::a.b.c.d
  if (g.slice(0, 4).every((x) => x === 0) && g[4] === 0xffff && g[5] === 0) return embedded(g[6]!, g[7]!); // ::ffff:0:a.b.c.d, IPv4-translated (RFC 2765)
  if (g[0] === 0x64 && g[1] === 0xff9b) return embedded(g[6]!, g[7]!); // NAT64
  if (g[0] === 0x2002) return embedded(g[1]!, g[2]!); // 6to4
  if (g[0] === 0x2001 && g[1] === 0x0db8) return true; // documentation
  return false;
}

/** True for an IP address (v4 or v6 text) that a remote image may not point at. Non-addresses: false. */
export function isBlockedAddress(address: string): boolean {
  const text = address.replace(/^\[|\]$/g, '');
  const n = v4(text);
  if (n !== undefined) return v4Blocked(n);
  const g = v6(text);
  return g !== undefined && v6Blocked(g);
}

/** True when `address` is an IP literal (v4 or v6). */
export function isIpLiteral(address: string): boolean {
  const text = address.replace(/^\[|\]$/g, '');
  return v4(text) !== undefined || v6(text) !== undefined;
}

const LOCAL_SUFFIXES = [
  '.localhost',
  '.local',
  '.internal',
  '.localdomain',
  '.home.arpa',
  '.lan',
  '.intranet',
  '.corp',
];

/**
 * Why `raw` may not be fetched as a remote image, judged without DNS (the URL's own text), or
 * undefined when it may (names still have to resolve to public addresses).
 */
export function remoteUrlProblem(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'is not a valid absolute URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http or https URL';
  if (url.username || url.password) return 'must not contain credentials';
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  if (isIpLiteral(host)) return isBlockedAddress(host) ? 'points at a private or local network address' : undefined;
  if (host === '' || host === 'localhost' || !host.includes('.') || LOCAL_SUFFIXES.some((s) => host.endsWith(s)))
    return 'points at a local or internal host name';
  return undefined;
}
