import 'server-only';
import { AppError } from './app-error';

/** No body the app takes nests deeper than a handful of levels; this leaves plenty of room. */
export const MAX_JSON_DEPTH = 64;

/**
 * How deep JSON text nests, found by one pass over it before anything parses it, stopping as soon as `max` is
 * passed: JSON.parse and the schemas after it recurse, and a body nested 100,000 arrays deep overflowed the
 * stack (a 500). Brackets inside strings do not count. The text is not validated here; JSON.parse does that.
 */
export function deeperThan(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

/** The refusal of a body that nests too deep (`what`: "The request body", "The delivery body"). */
export const tooDeep = (what: string) =>
  new AppError('invalid_request', `${what} nests deeper than ${MAX_JSON_DEPTH} levels.`, [
    { code: 'too_deep', message: `JSON may nest at most ${MAX_JSON_DEPTH} levels of arrays and objects.`, parameter: 'body' },
  ]);
