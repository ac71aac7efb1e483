import type { ValueSchema } from '../portal/value-schema';

/**
 * What a field's value_schema says, read once and defensively: in the browser the schema comes straight
 * from JSON, and keywords outside the subset (or of the wrong type) must not take the form down.
 */

export type ScalarType = 'string' | 'integer' | 'number' | 'boolean';
export type Choice = string | number | boolean;

export interface SchemaFacts {
  /** The first scalar type the schema names, or undefined when it names none. */
  readonly scalar: ScalarType | undefined;
  /** The schema holds a list (type array, or only `items` given). */
  readonly isList: boolean;
  /** The scalar type of a list's items. */
  readonly itemScalar: ScalarType | undefined;
  /** Choices of the value (or of the list's items); undefined when unrestricted. */
  readonly choices: readonly Choice[] | undefined;
  readonly format: string | undefined;
  readonly minLength: number | undefined;
  readonly maxLength: number | undefined;
  readonly pattern: string | undefined;
  readonly minimum: number | undefined;
  readonly maximum: number | undefined;
  readonly multipleOf: number | undefined;
  readonly minItems: number | undefined;
  readonly maxItems: number | undefined;
}

const SCALARS: readonly ScalarType[] = ['string', 'integer', 'number', 'boolean'];

const finite = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const count = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined;

function typeList(type: unknown): string[] {
  return (Array.isArray(type) ? type : [type]).filter((t): t is string => typeof t === 'string');
}

function firstScalar(types: readonly string[]): ScalarType | undefined {
  return SCALARS.find((s) => types.includes(s));
}

function choicesOf(values: unknown): Choice[] | undefined {
  if (!Array.isArray(values)) return undefined;
  return values.filter(
    (v): v is Choice =>
      typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v)),
  );
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function schemaFacts(schema: ValueSchema): SchemaFacts {
  const raw: Record<string, unknown> = isObject(schema) ? schema : {};
  const types = typeList(raw.type);
  const items = isObject(raw.items) ? raw.items : undefined;
  const isList = types.includes('array') || (raw.type === undefined && items !== undefined);
  const itemTypes = typeList(items?.type);
  // An enum on a list schema can only mean its items' choices, as lib/contract reads it.
  const choices = choicesOf(isList ? (items?.enum ?? raw.enum) : raw.enum);
  const scalarSource = isList ? items ?? {} : raw;
  return {
    scalar: firstScalar(types),
    isList,
    itemScalar: firstScalar(itemTypes),
    choices,
    format: typeof scalarSource.format === 'string' ? scalarSource.format : undefined,
    minLength: count(scalarSource.minLength),
    maxLength: count(scalarSource.maxLength),
    pattern: typeof scalarSource.pattern === 'string' ? scalarSource.pattern : undefined,
    minimum: finite(scalarSource.minimum),
    maximum: finite(scalarSource.maximum),
    multipleOf: finite(scalarSource.multipleOf) !== undefined && (scalarSource.multipleOf as number) > 0
      ? (scalarSource.multipleOf as number)
      : undefined,
    minItems: count(raw.minItems),
    maxItems: count(raw.maxItems),
  };
}
