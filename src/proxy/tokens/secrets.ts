/**
 * The proxy's secret and what is derived from it, with Web Crypto only (Node, Workers, Deno, Bun).
 *
 * One site secret (at least 32 bytes) is never used directly: HKDF-SHA-256 derives a separate key
 * per purpose (session tokens; sealed handles and download tickets), so a value
 * made for one purpose is useless for another. Rotation: `{ current, previous }` secrets with
 * ids; tokens name their secret's id in the `kid` header, sealed values are tried against each
 * secret in turn (newest first), and only the current secret makes new ones.
 */
import { fromBase64, toBase64Url } from '../../api/index.js';

export interface SecretEntry {
  /** A short, non-secret name for the secret (the token's `kid`). */
  id: string;
  /** At least 32 bytes (for example 64 hex characters from `openssl rand -hex 32`). */
  secret: string | Uint8Array;
}

export type SecretOption = string | Uint8Array | { current: SecretEntry; previous?: SecretEntry[] };

const MIN_SECRET_BYTES = 32;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

function normalize(option: SecretOption): { id: string; bytes: Uint8Array }[] {
  const bare = typeof option === 'string' || option instanceof Uint8Array;
  if (!bare && (typeof option !== 'object' || !('current' in option))) {
    throw new TypeError(
      'createProxy: `secret` must be a string of at least 32 bytes, a Uint8Array, or { current: { id, secret }, previous: [...] }; it was ' +
        typeof option +
        '.',
    );
  }
  const entries: SecretEntry[] = bare ? [{ id: 'k1', secret: option }] : [option.current, ...(option.previous ?? [])];
  // The name of each value as the caller wrote it: `secret`, `secret.current`, `secret.previous[0]`.
  const where = (i: number) => (bare ? '`secret`' : i === 0 ? '`secret.current`' : `\`secret.previous[${i - 1}]\``);
  const ids = new Set<string>();
  return entries.map((entry, i) => {
    if (!entry || typeof entry.id !== 'string' || !/^[A-Za-z0-9._-]{1,64}$/.test(entry.id)) {
      const given = entry && typeof entry === 'object' ? JSON.stringify(String(entry.id)).slice(0, 70) : String(entry);
      throw new TypeError(
        `createProxy: ${where(i)} needs an id of 1-64 letters, digits, ".", "_" or "-"; its id was ${given}.`,
      );
    }
    if (ids.has(entry.id))
      throw new TypeError(
        `createProxy: ${where(i)} has the id "${entry.id}" of an earlier secret; give each secret its own id.`,
      );
    ids.add(entry.id);
    const bytes = typeof entry.secret === 'string' ? encoder.encode(entry.secret) : entry.secret;
    if (!(bytes instanceof Uint8Array) || bytes.byteLength < MIN_SECRET_BYTES) {
      const size = bytes instanceof Uint8Array ? `${bytes.byteLength} bytes` : `not a string (${typeof entry.secret})`;
      const named = bare ? '' : ` (id "${entry.id}")`;
      throw new TypeError(
        `createProxy: ${where(i)}${named} is ${size}; it must be at least ${MIN_SECRET_BYTES} bytes. Generate one with \`openssl rand -hex 32\`.`,
      );
    }
    return { id: entry.id, bytes };
  });
}

async function derive(secret: Uint8Array, info: string): Promise<Uint8Array> {
  const base = await crypto.subtle.importKey('raw', secret as Uint8Array<ArrayBuffer>, 'HKDF', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits(
    { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: encoder.encode('mediakit-proxy/v1/' + info) },
    base,
    256,
  );
  return new Uint8Array(bits);
}

/** Decodes canonical base64url only: a text whose unused low bits are set (another spelling of the same bytes) is refused, so no two texts open to one value. */
export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return null;
  const out = fromBase64(text);
  return toBase64Url(out) === text ? out : null;
}

/** True when every dot-separated part of a compact JWS is canonical base64url. */
export function canonicalCompact(token: string): boolean {
  return token.split('.').every((part) => fromBase64Url(part) !== null);
}

/**
 * A short, fixed-length name for a value in store keys (subjects and job ids are not stored in
 * clear, and any subject makes a well-formed key). Unkeyed on purpose: rotating the secret must not
 * reset budgets.
 */
export async function digestName(value: string): Promise<string> {
  return toBase64Url(new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(value)))).slice(0, 22);
}

/** HMAC-SHA-256 of `message` under `key`, base64url. */
export async function hmac(key: Uint8Array, message: string): Promise<string> {
  const k = await crypto.subtle.importKey(
    'raw',
    key as Uint8Array<ArrayBuffer>,
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  return toBase64Url(new Uint8Array(await crypto.subtle.sign('HMAC', k, encoder.encode(message))));
}

interface DerivedSecret {
  id: string;
  token: Uint8Array;
  seal: CryptoKey;
  /** The key of kept results' ids. */
  results: Uint8Array;
}

/**
 * What a sealed value is for; part of the authenticated data, so a handle is never a ticket.
 * `scoped-handle`: a job handle bound to a scope (a team) rather than a subject, a purpose of its
 * own so that no subject, whatever its spelling, opens a scope's handle. `result`: the owner of a
 * kept result, in its metadata.
 */
export type SealPurpose = 'handle' | 'scoped-handle' | 'file' | 'result';

const IV_BYTES = 12;

export class Keyring {
  readonly #entries: { id: string; bytes: Uint8Array }[];
  #derived: Promise<DerivedSecret[]> | undefined;

  /** Throws at once (at createProxy) when a secret is missing or short. */
  constructor(option: SecretOption) {
    if (option === undefined || option === null)
      throw new TypeError('createProxy: `secret` is required (at least 32 bytes; `openssl rand -hex 32`).');
    this.#entries = normalize(option);
  }

  #all(): Promise<DerivedSecret[]> {
    this.#derived ??= Promise.all(
      this.#entries.map(async ({ id, bytes }) => {
        const [token, seal, results] = await Promise.all([
          derive(bytes, 'token'),
          derive(bytes, 'seal'),
          derive(bytes, 'results'),
        ]);
        const sealKey = await crypto.subtle.importKey('raw', seal as Uint8Array<ArrayBuffer>, 'AES-GCM', false, [
          'encrypt',
          'decrypt',
        ]);
        return { id, token, seal: sealKey, results };
      }),
    );
    return this.#derived;
  }

  /** The current secret's id and token-signing key. */
  async signingKey(): Promise<{ kid: string; key: Uint8Array }> {
    const [current] = await this.#all();
    return { kid: current!.id, key: current!.token };
  }

  /** The token-verification key for a `kid`, if it is one of ours. */
  async verificationKey(kid: unknown): Promise<Uint8Array | undefined> {
    return (await this.#all()).find((d) => d.id === kid)?.token;
  }

  /**
   * HMAC-SHA-256 of `message` under each secret's results key, the current secret's first: the
   * current one names a new kept result, the previous ones find a result kept before a rotation.
   */
  async resultMacs(message: string): Promise<string[]> {
    return Promise.all((await this.#all()).map((d) => hmac(d.results, message)));
  }

  /** AES-256-GCM under the current secret: base64url(iv | ciphertext | tag). `context` is authenticated, not stored. */
  async seal(purpose: SealPurpose, plaintext: string, context: string): Promise<string> {
    const [current] = await this.#all();
    const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
    const data = encoder.encode(plaintext);
    const sealed = new Uint8Array(
      await crypto.subtle.encrypt(
        { name: 'AES-GCM', iv, additionalData: encoder.encode(purpose + '\n' + context) },
        current!.seal,
        data,
      ),
    );
    const out = new Uint8Array(IV_BYTES + sealed.byteLength);
    out.set(iv);
    out.set(sealed, IV_BYTES);
    return toBase64Url(out);
  }

  /** The plaintext of a sealed value made for this purpose and context, or null (forged, altered, other subject, other purpose). */
  async open(purpose: SealPurpose, sealed: string, context: string): Promise<string | null> {
    const bytes = fromBase64Url(sealed);
    if (!bytes || bytes.byteLength < IV_BYTES + 16 + 1) return null;
    const iv = bytes.subarray(0, IV_BYTES);
    const body = bytes.subarray(IV_BYTES);
    const additionalData = encoder.encode(purpose + '\n' + context);
    for (const secret of await this.#all()) {
      try {
        const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv, additionalData }, secret.seal, body);
        return decoder.decode(plain);
      } catch {
        // Not this secret (or not genuine): try the next one.
      }
    }
    return null;
  }
}
