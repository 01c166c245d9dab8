/**
 * The store on Redis, for many proxy instances: each operation is one Lua script, so it is atomic
 * across instances. A ledger is a hash: `_used`, `r:<id>` (reserved amount), `s:<id>` (settled).
 *
 * Works with a connected node-redis v4/v5 client (`createClient()` from `redis`); anything with the
 * same `eval(script, { keys, arguments })` works too. The proxy bounds every call with a timeout and
 * refuses the request when the store fails (fail closed), so a client that queues commands while
 * reconnecting is fine.
 */
import type { ProxyStore } from './state-store.js';

/** The one method the store uses (node-redis `client.eval`). */
export interface RedisEvalClient {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

const RESERVE = `
local used = tonumber(redis.call('HGET', KEYS[1], '_used') or '0')
if redis.call('HEXISTS', KEYS[1], 'r:' .. ARGV[1]) == 1 or redis.call('HEXISTS', KEYS[1], 's:' .. ARGV[1]) == 1 then
  return {1, used, 0}
end
local amount = tonumber(ARGV[2])
if used + amount > tonumber(ARGV[3]) then return {0, used, 0} end
used = used + amount
redis.call('HSET', KEYS[1], '_used', used, 'r:' .. ARGV[1], amount)
if redis.call('TTL', KEYS[1]) < tonumber(ARGV[4]) then redis.call('EXPIRE', KEYS[1], ARGV[4]) end
return {1, used, 1}`;

const SETTLE = `
local used = tonumber(redis.call('HGET', KEYS[1], '_used') or '0')
if redis.call('HEXISTS', KEYS[1], 's:' .. ARGV[1]) == 1 then return used end
local reserved = tonumber(redis.call('HGET', KEYS[1], 'r:' .. ARGV[1]) or '0')
used = used - reserved + tonumber(ARGV[2])
redis.call('HDEL', KEYS[1], 'r:' .. ARGV[1])
redis.call('HSET', KEYS[1], '_used', used, 's:' .. ARGV[1], ARGV[2])
if redis.call('TTL', KEYS[1]) < tonumber(ARGV[3]) then redis.call('EXPIRE', KEYS[1], ARGV[3]) end
return used`;

const RELEASE = `
local used = tonumber(redis.call('HGET', KEYS[1], '_used') or '0')
local reserved = redis.call('HGET', KEYS[1], 'r:' .. ARGV[1])
if reserved then
  used = used - tonumber(reserved)
  redis.call('HDEL', KEYS[1], 'r:' .. ARGV[1])
  redis.call('HSET', KEYS[1], '_used', used)
end
return used`;

const HIT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}`;

// Byte ledgers: a hash of `_used` and `b:<id>` (bytes per kept result). An entry set with a time
// to live (a keep's pending hold) also has `x:<id>`, when it expires (ms, Redis's clock), and
// `_next` is the earliest such time: each script first drops the expired entries, scanning the
// hash only once `_next` has passed. Numbers are written with %.0f: Lua's default number format
// would turn 15 digits into an exponent.
const SWEEP = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local nextAt = tonumber(redis.call('HGET', KEYS[1], '_next') or '')
if nextAt and nextAt <= now then
  local fields = redis.call('HGETALL', KEYS[1])
  local swept = tonumber(redis.call('HGET', KEYS[1], '_used') or '0')
  local soonest = nil
  for i = 1, #fields, 2 do
    local f = fields[i]
    if string.sub(f, 1, 2) == 'x:' then
      local at = tonumber(fields[i + 1])
      local id = string.sub(f, 3)
      if at <= now then
        swept = swept - tonumber(redis.call('HGET', KEYS[1], 'b:' .. id) or '0')
        redis.call('HDEL', KEYS[1], 'b:' .. id, f)
      elseif not soonest or at < soonest then
        soonest = at
      end
    end
  end
  redis.call('HSET', KEYS[1], '_used', string.format('%.0f', swept))
  if soonest then redis.call('HSET', KEYS[1], '_next', string.format('%.0f', soonest))
  else redis.call('HDEL', KEYS[1], '_next') end
end
`;

const HOLD_BYTES = `${SWEEP}
local used = tonumber(redis.call('HGET', KEYS[1], '_used') or '0')
local old = tonumber(redis.call('HGET', KEYS[1], 'b:' .. ARGV[1]) or '0')
local moved = 0
if ARGV[4] ~= '' and ARGV[4] ~= ARGV[1] then moved = tonumber(redis.call('HGET', KEYS[1], 'b:' .. ARGV[4]) or '0') end
local after = used - old - moved + tonumber(ARGV[2])
if after > tonumber(ARGV[3]) then return {0, string.format('%.0f', used)} end
redis.call('HSET', KEYS[1], '_used', string.format('%.0f', after), 'b:' .. ARGV[1], ARGV[2])
if ARGV[4] ~= '' and ARGV[4] ~= ARGV[1] then redis.call('HDEL', KEYS[1], 'b:' .. ARGV[4], 'x:' .. ARGV[4]) end
if ARGV[5] ~= '' then
  local at = now + tonumber(ARGV[5])
  redis.call('HSET', KEYS[1], 'x:' .. ARGV[1], string.format('%.0f', at))
  local current = tonumber(redis.call('HGET', KEYS[1], '_next') or '')
  if not current or at < current then redis.call('HSET', KEYS[1], '_next', string.format('%.0f', at)) end
else
  redis.call('HDEL', KEYS[1], 'x:' .. ARGV[1])
end
return {1, string.format('%.0f', after)}`;

const DROP_BYTES = `${SWEEP}
local used = tonumber(redis.call('HGET', KEYS[1], '_used') or '0')
local old = redis.call('HGET', KEYS[1], 'b:' .. ARGV[1])
if old then
  used = used - tonumber(old)
  redis.call('HDEL', KEYS[1], 'b:' .. ARGV[1], 'x:' .. ARGV[1])
  redis.call('HSET', KEYS[1], '_used', string.format('%.0f', used))
end
return string.format('%.0f', used)`;

const BYTES_USED = `${SWEEP}
return redis.call('HGET', KEYS[1], '_used') or '0'`;

export class RedisStore implements ProxyStore {
  readonly #client: RedisEvalClient;
  readonly #prefix: string;

  /** `prefix` namespaces every key (default `mediakit:`), so one Redis can serve several sites. */
  constructor(client: RedisEvalClient, options: { prefix?: string } = {}) {
    if (!client || typeof client.eval !== 'function')
      throw new TypeError(
        'RedisStore needs a connected node-redis client (createClient() from "redis", then await client.connect()).',
      );
    this.#client = client;
    this.#prefix = options.prefix ?? 'mediakit:';
  }

  async #run(script: string, key: string, args: (string | number)[]): Promise<unknown> {
    return this.#client.eval(script, { keys: [this.#prefix + key], arguments: args.map(String) });
  }

  async reserve(ledger: string, id: string, amount: number, limit: number, ttlSeconds: number) {
    const [ok, used, created] = (await this.#run(RESERVE, ledger, [id, amount, limit, ttlSeconds])) as [
      number,
      number,
      number,
    ];
    return { ok: ok === 1, used: Number(used), created: created === 1 };
  }

  async settle(ledger: string, id: string, amount: number, ttlSeconds: number) {
    return Number(await this.#run(SETTLE, ledger, [id, amount, ttlSeconds]));
  }

  async release(ledger: string, id: string) {
    return Number(await this.#run(RELEASE, ledger, [id]));
  }

  async used(ledger: string) {
    return Number(await this.#run(`return tonumber(redis.call('HGET', KEYS[1], '_used') or '0')`, ledger, []));
  }

  async holdBytes(ledger: string, id: string, bytes: number, limit: number, from?: string, ttlSeconds?: number) {
    const [ok, used] = (await this.#run(HOLD_BYTES, ledger, [
      id,
      bytes,
      Math.min(limit, Number.MAX_SAFE_INTEGER),
      from ?? '',
      typeof ttlSeconds === 'number' ? Math.max(1, Math.round(ttlSeconds * 1000)) : '',
    ])) as [number, string];
    return { ok: Number(ok) === 1, used: Number(used) };
  }

  async dropBytes(ledger: string, id: string) {
    return Number(await this.#run(DROP_BYTES, ledger, [id]));
  }

  async bytesUsed(ledger: string) {
    return Number(await this.#run(BYTES_USED, ledger, []));
  }

  async hit(counter: string, windowSeconds: number) {
    const [count, ttl] = (await this.#run(HIT, counter, [Math.round(windowSeconds * 1000)])) as [number, number];
    return { count: Number(count), resetMs: Number(ttl) };
  }
}
