/**
 * Stable form field names (DESIGN.md §4): `a.<block_key>.<schema_key>.<field_key>` for answers outside
 * repeatable groups, `i.<item_id>.<schema_key>.<field_key>` for answers inside a repeatable item, and
 * `g.<block_key>` / `g.<block_key>.<parent_item_id>` for a group's own checks (min_items, max_items).
 *
 * Keys are up to 512 characters of any text (spec §8), so each segment is escaped: `%`, `.`, `[` and `]`
 * become %25, %2E, %5B and %5D. The dot would split a segment, and form libraries such as react-hook-form
 * read dots and brackets as paths. The snake_case keys contracts use in practice pass through unchanged.
 */

export type ParsedName =
  | { readonly scope: 'answer'; readonly blockKey: string; readonly schemaKey: string; readonly fieldKey: string }
  | { readonly scope: 'item'; readonly itemId: string; readonly schemaKey: string; readonly fieldKey: string }
  | { readonly scope: 'group'; readonly blockKey: string; readonly parentItemId: string | null };

const NEEDS_ESCAPE = /[%.[\]]/;
const ESCAPES: Readonly<Record<string, string>> = { '%': '%25', '.': '%2E', '[': '%5B', ']': '%5D' };

export function escapeSegment(segment: string): string {
  return NEEDS_ESCAPE.test(segment) ? segment.replace(/[%.[\]]/g, (c) => ESCAPES[c] ?? c) : segment;
}

export function unescapeSegment(segment: string): string {
  if (!segment.includes('%')) return segment;
  return segment.replace(/%(25|2E|5B|5D)/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

export const answerName = (blockKey: string, schemaKey: string, fieldKey: string): string =>
  `a.${escapeSegment(blockKey)}.${escapeSegment(schemaKey)}.${escapeSegment(fieldKey)}`;

export const itemName = (itemId: string, schemaKey: string, fieldKey: string): string =>
  `i.${escapeSegment(itemId)}.${escapeSegment(schemaKey)}.${escapeSegment(fieldKey)}`;

/** The name a group's own error is reported under: per parent item for nested groups. */
export const groupName = (blockKey: string, parentItemId: string | null): string =>
  parentItemId === null
    ? `g.${escapeSegment(blockKey)}`
    : `g.${escapeSegment(blockKey)}.${escapeSegment(parentItemId)}`;

// Names are parsed on every keystroke; a form has a bounded set of them, so remembering parses is cheap.
const parsed = new Map<string, ParsedName | null>();
const PARSE_CACHE_LIMIT = 50_000;

function parseUncached(name: string): ParsedName | null {
  const parts = name.split('.');
  if (parts.some((p) => p === '')) return null;
  const [scope, a, b, c] = parts.map(unescapeSegment);
  if (scope === 'a' && parts.length === 4) return { scope: 'answer', blockKey: a!, schemaKey: b!, fieldKey: c! };
  if (scope === 'i' && parts.length === 4) return { scope: 'item', itemId: a!, schemaKey: b!, fieldKey: c! };
  if (scope === 'g' && (parts.length === 2 || parts.length === 3)) {
    return { scope: 'group', blockKey: a!, parentItemId: b ?? null };
  }
  return null;
}

/** The parts of a name; null for anything that is not a form field or group name. */
export function parseName(name: string): ParsedName | null {
  let result = parsed.get(name);
  if (result === undefined) {
    result = parseUncached(name);
    if (parsed.size >= PARSE_CACHE_LIMIT) parsed.clear();
    parsed.set(name, result);
  }
  return result;
}

/** The item an answer name belongs to; null for a top-level answer or a group's name. */
export function itemIdOfName(name: string): string | null {
  const parsed = parseName(name);
  return parsed?.scope === 'item' ? parsed.itemId : null;
}

/** Key of one question instance (a question at the top level, or in one item): for visibility sets. */
export const questionInstanceKey = (itemId: string | null, schemaKey: string): string =>
  `${itemId === null ? '' : escapeSegment(itemId)}#${schemaKey}`;

/** Key of a field of the contract, whatever item it is in: schema keys are unique within a contract. */
export const fieldKeyOf = (schemaKey: string, fieldKey: string): string => `${schemaKey}\u0000${fieldKey}`;
