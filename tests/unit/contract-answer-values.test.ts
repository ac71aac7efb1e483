import { describe, expect, it } from 'vitest';
import { allowedValuesOf, emptyValueFor, isAnswered, valueTypeOf } from '@/lib/contract';
import { LIMITS } from '@/lib/portal/limits';
import type { ValueSchema } from '@/lib/portal/value-schema';

describe('isAnswered', () => {
  it.each([
    [null, false],
    [undefined, false],
    ['', false],
    [' \t\n ', false],
    [[], false],
    ['a', true],
    [' a ', true],
    [0, true],
    [-1.5, true],
    [false, true],
    [true, true],
    [[''], true],
    [[false], true],
  ] as const)('%j → %s', (value, answered) => {
    expect(isAnswered(value)).toBe(answered);
  });
});

describe('valueTypeOf', () => {
  it.each([
    [{ type: 'string', format: 'email' }, 'email'],
    [{ type: 'string', format: 'uri' }, 'uri'],
    [{ type: 'string', format: 'date' }, 'date'],
    [{ type: 'string', format: 'date-time' }, 'date-time'],
    [{ format: 'date' }, 'date'],
    [{ type: 'string' }, 'string'],
    [{ type: 'integer', minimum: 0 }, 'integer'],
    [{ type: 'number' }, 'number'],
    [{ type: 'boolean' }, 'boolean'],
    [{ type: 'array', items: { type: 'string', enum: ['a'] } }, 'array'],
    [{ type: 'array', items: { type: 'string', format: 'email' } }, 'array'],
    [{ items: { type: 'integer' } }, 'array'],
    [{ type: ['null', 'integer'] }, 'integer'],
    [{ type: ['string', 'null'], format: 'email' }, 'email'],
    [{ type: ['null', 'array'] }, 'array'],
    [{ type: 'string', format: 'phone' }, 'string'],
    [{}, 'string'],
    [{ type: 'null' }, 'string'],
    [{ enum: ['a', 'b'] }, 'string'],
  ] as Array<[ValueSchema, string]>)('%j → %s', (schema, expected) => {
    const type = valueTypeOf(schema);
    expect(type).toBe(expected);
    expect(type.length).toBeGreaterThanOrEqual(LIMITS.valueType.min);
    expect(type.length).toBeLessThanOrEqual(LIMITS.valueType.max);
  });
});

describe('allowedValuesOf', () => {
  it('lists a scalar schema enum', () => {
    expect(allowedValuesOf({ type: 'string', enum: ['sole_trader', 'partnership'] })).toEqual(['sole_trader', 'partnership']);
  });

  it('lists the items enum of a list schema', () => {
    expect(allowedValuesOf({ type: 'array', items: { type: 'string', enum: ['x', 'y'] } })).toEqual(['x', 'y']);
    expect(allowedValuesOf({ items: { enum: ['x'] } })).toEqual(['x']);
  });

  it('falls back to a top-level enum on a list schema', () => {
    expect(allowedValuesOf({ type: 'array', enum: ['p', 'q'] })).toEqual(['p', 'q']);
  });

  it('gives choices that are not strings as strings, and leaves null out', () => {
    expect(allowedValuesOf({ type: 'integer', enum: [1, 2, 3] })).toEqual(['1', '2', '3']);
    expect(allowedValuesOf({ enum: [true, false, null] })).toEqual(['true', 'false']);
  });

  it('leaves out a choice longer than the spec allows', () => {
    expect(allowedValuesOf({ enum: ['ok', 'x'.repeat(256), 'y'.repeat(255)] })).toEqual(['ok', 'y'.repeat(255)]);
  });

  it('is empty when choices are unrestricted', () => {
    expect(allowedValuesOf({ type: 'string' })).toEqual([]);
    expect(allowedValuesOf({ type: 'array', items: { type: 'string' } })).toEqual([]);
    expect(allowedValuesOf({})).toEqual([]);
  });

  it('ignores items on a scalar schema', () => {
    expect(allowedValuesOf({ type: 'string', items: { enum: ['x'] } })).toEqual([]);
  });

  it('returns a fresh array each time', () => {
    const schema: ValueSchema = { enum: ['a'] };
    allowedValuesOf(schema).push('b');
    expect(allowedValuesOf(schema)).toEqual(['a']);
  });
});

describe('emptyValueFor', () => {
  it('is null for every schema', () => {
    expect(emptyValueFor({ type: 'string' })).toBeNull();
    expect(emptyValueFor({ type: 'array', items: { type: 'string' } })).toBeNull();
    expect(emptyValueFor({ type: 'boolean' })).toBeNull();
  });
});
