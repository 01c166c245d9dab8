/**
 * No parameter of the API nests more than a few levels, so a JSON body nested deeper than
 * MAX_JSON_DEPTH is refused (400) before it is parsed: two million `[` would otherwise overflow
 * the stack of JSON.parse or of anything that walks the value. The proxy and the sandbox both
 * check with this one function.
 */
export const MAX_JSON_DEPTH = 64;

/** The deepest nesting of arrays and objects in JSON text (brackets inside strings do not count); stops counting past MAX_JSON_DEPTH. */
export function jsonDepth(bytes: Uint8Array): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: the next byte is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_JSON_DEPTH) return depth;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return Math.max(0, depth);
}

/** What the 400 says, in the proxy and the sandbox alike. */
export const JSON_TOO_DEEP = `The JSON body is nested too deeply (more than ${MAX_JSON_DEPTH} levels of arrays and objects). Send the parameters as the API reference shows them.`;
