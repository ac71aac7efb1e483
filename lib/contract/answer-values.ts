import { LIMITS } from '../portal/limits';
import type { ValueSchema } from '../portal/value-schema';

/**
 * Facts about answer values and their value_schema that the sandbox (building answer items, spec 2.10),
 * the BFF and the form must agree on.
 */

/**
 * Whether a value counts as an answer. Blank text and empty lists do not, because a person who cleared a
 * field has not answered it; false and 0 do, because they are real answers.
 */
export function isAnswered(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === 'string') return value.trim() !== '';
  if (Array.isArray(value)) return value.length > 0;
  return true;
}

const KNOWN_FORMATS: ReadonlySet<string> = new Set(['email', 'uri', 'date', 'date-time']);
const SCALAR_TYPES: ReadonlySet<string> = new Set(['string', 'integer', 'number', 'boolean']);

function typeNames(schema: ValueSchema): readonly unknown[] {
  return Array.isArray(schema.type) ? schema.type : [schema.type];
}

function isListSchema(schema: ValueSchema): boolean {
  const types = typeNames(schema);
  if (types.includes('array')) return true;
  // With no type at all, `items` is the only hint of what the field holds.
  return schema.type === undefined && typeof schema.items === 'object' && schema.items !== null;
}

/**
 * The answer item's value_type (spec 2.10, 1 to 36 characters): the format when it is one of the subset's,
 * else the first non-null type, 'array' for lists, and 'string' when the schema says nothing.
 */
export function valueTypeOf(schema: ValueSchema): string {
  if (isListSchema(schema)) return 'array';
  if (typeof schema.format === 'string' && KNOWN_FORMATS.has(schema.format)) return schema.format;
  const type = typeNames(schema).find((t): t is string => typeof t === 'string' && SCALAR_TYPES.has(t));
  return type ?? 'string';
}

/**
 * The answer item's allowed_values: the schema's choices as strings, the items' choices for a list; empty
 * when choices are unrestricted. null is no choice (it means unanswered), and a choice longer than the
 * spec's 255 characters could not be listed, so both are left out.
 */
export function allowedValuesOf(schema: ValueSchema): string[] {
  const items = typeof schema.items === 'object' && schema.items !== null ? schema.items : undefined;
  const choices = (isListSchema(schema) ? items?.enum : undefined) ?? schema.enum;
  if (!Array.isArray(choices)) return [];
  const allowed: string[] = [];
  for (const choice of choices) {
    if (typeof choice !== 'string' && typeof choice !== 'number' && typeof choice !== 'boolean') continue;
    const text = String(choice);
    if (text.length <= LIMITS.allowedValueMax) allowed.push(text);
  }
  return allowed;
}

/** The value of an unanswered field of any schema: always null (spec 2.10). */
export function emptyValueFor(_schema: ValueSchema): null {
  return null;
}
