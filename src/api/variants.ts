/**
 * The headshot `variants` parameter, read by exactly one rule everywhere: the sandbox applies it
 * (and refuses what it refuses), the proxy prices a call by it before forwarding. The spec: an
 * array of slots 0-3, default [0,1,2,3]; in multipart a comma-separated string such as "0,2".
 *
 * Choices where the spec is silent: absent, null, "" and a string of only spaces mean the
 * default (all four slots); a string is split at commas and each piece, trimmed, must be digits;
 * an empty list, a duplicate slot or anything else is refused.
 */
import { LIMITS } from './limits.js';
import type { VariantSlot } from './types.js';

export type VariantsResult = { ok: true; slots: VariantSlot[]; defaulted: boolean } | { ok: false; message: string };

export function parseVariants(raw: unknown): VariantsResult {
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) {
    return { ok: true, slots: [...LIMITS.headshot.slots], defaulted: true };
  }
  let list: unknown[];
  if (Array.isArray(raw)) list = raw;
  else if (typeof raw === 'string') list = raw.split(',').map((s) => (/^\s*\d{1,3}\s*$/.test(s) ? Number(s) : s));
  else return { ok: false, message: 'variants must be an array of slot numbers such as [0, 2] (in multipart: "0,2").' };
  if (list.length === 0) return { ok: false, message: 'variants is empty; ask for at least one slot of 0, 1, 2, 3.' };
  const slots = new Set<VariantSlot>();
  for (const v of list) {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 3) {
      return {
        ok: false,
        message: `variants may only hold the slots 0, 1, 2 and 3; got ${String(JSON.stringify(v)).slice(0, 20)}.`,
      };
    }
    if (slots.has(v as VariantSlot))
      return { ok: false, message: `variants names slot ${v} twice; name each slot once.` };
    slots.add(v as VariantSlot);
  }
  return { ok: true, slots: [...slots].sort(), defaulted: false };
}
