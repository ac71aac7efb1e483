import { describe, expect, it } from 'vitest';
import {
  compileValueSchema,
  isDate,
  isDateTime,
  isEmail,
  isUri,
  isWebUrl,
  findUnsafeText,
  validateValue,
  type ValueIssue,
} from '@/lib/contract';
import type { ValueSchema } from '@/lib/portal/value-schema';
import {
  DATE_TIME_VECTORS,
  DATE_VECTORS,
  EMAIL_DEPARTURES,
  EMAIL_VECTORS,
  URI_VECTORS,
  type Vector,
} from './support/format-vectors';

const codes = (issues: readonly ValueIssue[]) => issues.map((i) => i.code);
const check = (value: unknown, schema: ValueSchema) => validateValue(value, schema);

describe('null and the shared empty result', () => {
  it('accepts null under any schema: required-ness is separate', () => {
    expect(check(null, { type: 'integer', minimum: 5 })).toEqual([]);
    expect(check(null, { type: 'array', minItems: 3 })).toEqual([]);
    expect(check(null, { enum: ['a'] })).toEqual([]);
  });

  it('returns one frozen, shared array for every valid value', () => {
    const validate = compileValueSchema({ type: 'string' });
    const first = validate('a');
    expect(first).toHaveLength(0);
    expect(validate('b')).toBe(first);
    expect(validate(null)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
  });

  it('caches compiled validators per schema object in validateValue', () => {
    const schema: ValueSchema = { type: 'string', maxLength: 2 };
    expect(codes(validateValue('abc', schema))).toEqual(['max_length']);
    expect(codes(validateValue('abc', schema))).toEqual(['max_length']);
  });
});

describe('type', () => {
  it.each([
    ['string', 'x', 5, 'Must be text'],
    ['integer', 5, 5.5, 'Must be a whole number'],
    ['number', 5.5, '5.5', 'Must be a number'],
    ['boolean', false, 'false', 'Must be yes or no'],
    ['array', ['x'], 'x', 'Must be a list'],
  ] as const)('%s accepts its own kind and refuses others', (type, good, bad, message) => {
    expect(check(good, { type })).toEqual([]);
    expect(check(bad, { type })).toEqual([{ code: 'type', message }]);
  });

  it('integer accepts 3.0 and negative whole numbers, refuses 3.5', () => {
    expect(check(3.0, { type: 'integer' })).toEqual([]);
    expect(check(-7, { type: 'integer' })).toEqual([]);
    expect(codes(check(3.5, { type: 'integer' }))).toEqual(['type']);
  });

  it('number accepts integers', () => {
    expect(check(3, { type: 'number' })).toEqual([]);
  });

  it('refuses NaN and Infinity even where any number would do', () => {
    expect(check(Number.NaN, { type: 'number' })).toEqual([{ code: 'type', message: 'Must be a number' }]);
    expect(check(Number.POSITIVE_INFINITY, { type: 'integer' })).toEqual([
      { code: 'type', message: 'Must be a whole number' },
    ]);
    expect(check(Number.NEGATIVE_INFINITY, {})).toEqual([{ code: 'type', message: 'Must be a number' }]);
  });

  it('takes an array of types and names them all in the message', () => {
    const schema: ValueSchema = { type: ['integer', 'string'] };
    expect(check(4, schema)).toEqual([]);
    expect(check('four', schema)).toEqual([]);
    expect(check(true, schema)).toEqual([{ code: 'type', message: 'Must be a whole number or text' }]);
    expect(check(true, { type: ['string', 'integer', 'array'] })[0]?.message).toBe(
      'Must be text, a whole number or a list',
    );
  });

  it('leaves null out of a type list message and folds integer into number', () => {
    expect(check('x', { type: ['integer', 'null'] })[0]?.message).toBe('Must be a whole number');
    expect(check('x', { type: ['integer', 'number'] })[0]?.message).toBe('Must be a number');
    expect(check('x', { type: 'null' })).toEqual([{ code: 'type', message: 'Must be left empty' }]);
  });

  it('without a type accepts any answer shape of the spec but nothing else', () => {
    for (const value of ['x', 1, 1.5, true, ['a'], [1, 2], [true]]) expect(check(value, {})).toEqual([]);
    for (const value of [{}, undefined, () => 1]) {
      expect(check(value, {})).toEqual([{ code: 'type', message: 'Must be text, a number, yes or no, or a list' }]);
    }
  });

  it('refuses objects and undefined under a typed schema', () => {
    expect(codes(check({ a: 1 }, { type: 'string' }))).toEqual(['type']);
    expect(codes(check(undefined, { type: 'string' }))).toEqual(['type']);
  });

  it('ignores unknown type names', () => {
    expect(check({ a: 1 }, { type: ['object' as 'string'] })).toEqual([
      { code: 'type', message: 'Must be text, a number, yes or no, or a list' },
    ]);
    expect(check('x', { type: ['object' as 'string'] })).toEqual([]);
  });

  it('stops at a type issue rather than adding noise from other keywords', () => {
    expect(check(5, { type: 'string', minLength: 3, pattern: '^a' })).toEqual([{ code: 'type', message: 'Must be text' }]);
  });
});

describe('enum', () => {
  it('accepts a listed value and refuses others, strictly by type', () => {
    const schema: ValueSchema = { type: 'string', enum: ['sole_trader', 'limited_company'] };
    expect(check('sole_trader', schema)).toEqual([]);
    expect(check('Sole_trader', schema)).toEqual([{ code: 'enum', message: 'Choose one of the listed options' }]);
    expect(codes(check(1, { enum: ['1'] }))).toEqual(['enum']);
    expect(check(1, { enum: [1, 2] })).toEqual([]);
    expect(check(1.0, { enum: [1] })).toEqual([]);
    expect(check(false, { enum: [false] })).toEqual([]);
    expect(codes(check(0, { enum: [false] }))).toEqual(['enum']);
  });

  it('an empty enum allows no answer but null', () => {
    expect(codes(check('x', { enum: [] }))).toEqual(['enum']);
    expect(check(null, { enum: [] })).toEqual([]);
  });

  it('an empty enum refuses every list, the empty one included, and says there is nothing to choose', () => {
    const message = 'There are no options to choose from here: leave it unanswered';
    expect(check([], { type: 'array', enum: [] })).toEqual([{ code: 'enum', message }]);
    expect(check([], { type: 'array', items: { enum: [] } })).toEqual([{ code: 'enum', message }]);
    expect(codes(check(['x'], { type: 'array', enum: [] }))).toEqual(['enum']);
    expect(check(null, { type: 'array', enum: [] })).toEqual([]);
  });

  it('stops at an enum issue', () => {
    expect(check('zzzz', { enum: ['a'], maxLength: 1 })).toEqual([
      { code: 'enum', message: 'Choose one of the listed options' },
    ]);
  });
});

/** Each format: values its check accepts, values it refuses, and the message a refused answer gets. */
const FORMATS = [
  {
    title: 'email',
    format: 'email',
    is: isEmail,
    good: ['a@b.co', 'first.last+tag@sub.example.org', 'jürgen@müller.de', "o'neil@example.ie"],
    bad: ['', 'a', 'a@b', 'a@b.c', '@b.co', 'a b@c.co', 'a@b c.co', 'a@@b.co', 'a@.b.co', 'a@b..co', 'a@-b.co'],
    refused: 'nope',
    message: 'Enter a valid email address',
  },
  {
    title: 'uri: absolute http or https only',
    format: 'uri',
    is: isWebUrl,
    good: ['https://example.com', 'http://example.com/a?b=c#d', 'HTTPS://Example.com:8443/x', 'https://xn--mller-kva.de'],
    bad: [
      // not absolute, or not the web
      'example.com', '/relative', 'ftp://example.com', 'mailto:a@b.co', 'javascript:alert(1)',
      // malformed
      'https://', 'https:example.com', 'https://exa mple.com', 'https://example.com/a b', ' https://example.com', 'https://example.com\n',
    ],
    refused: 'example.com',
    message: 'Enter a valid web address starting with http:// or https://',
  },
  {
    title: 'date: YYYY-MM-DD naming a real day',
    format: 'date',
    is: isDate,
    good: ['2026-01-31', '2024-02-29', '2000-02-29', '2026-12-31', '0001-01-01'],
    bad: [
      // days that do not exist
      '2026-02-30', '2026-02-29', '1900-02-29', '2026-04-31', '2026-13-01', '2026-00-10', '2026-01-00',
      // not YYYY-MM-DD
      '2026-1-5', '26-01-05', '2026/01/05', '2026-01-05T00:00:00Z', ' 2026-01-05',
    ],
    refused: '2026-02-30',
    message: 'Enter a valid date (YYYY-MM-DD)',
  },
  {
    title: 'date-time: ISO 8601 (RFC 3339) with an offset',
    format: 'date-time',
    is: isDateTime,
    good: ['2026-03-01T09:30:00Z', '2026-03-01T09:30:00.123Z', '2026-03-01T23:59:59+05:30', '2024-02-29T00:00:00-08:00'],
    bad: [
      // a day, time or offset that does not exist
      '2026-02-30T09:30:00Z', '2026-03-01T24:00:00Z', '2026-03-01T09:60:00Z', '2026-03-01T09:30:60Z',
      '2026-03-01T09:30:00+24:00', '2026-03-01T09:30:00+05:60',
      // no offset, or not the RFC 3339 shape
      '2026-03-01T09:30:00', '2026-03-01 09:30:00Z', '2026-03-01T09:30Z', '2026-03-01T09:30:00+0530', '2026-03-01',
    ],
    refused: '2026-03-01',
    message: 'Enter a valid date and time',
  },
];

/** Every vector of a published suite, each as its own expectation so a failure names its description. */
function expectVectors(is: (text: string) => boolean, vectors: readonly Vector[]) {
  for (const vector of vectors) expect(is(vector.data), `${vector.description}: ${JSON.stringify(vector.data)}`).toBe(vector.valid);
}

describe('format: published test vectors (JSON-Schema-Test-Suite, RFC examples)', () => {
  it('email follows RFC 5321 / 5322 on every vector but the listed departures', () => {
    expectVectors(isEmail, EMAIL_VECTORS);
    for (const d of EMAIL_DEPARTURES) expect(isEmail(d.data), `${d.description} (${d.why})`).toBe(d.ours);
  });

  it('uri: the RFC 3986 grammar, without the URL parser repairing spaces, brackets or escapes', () => {
    expectVectors(isUri, URI_VECTORS);
  });

  it('uri as the form means it: an RFC 3986 URI that is http or https with a host', () => {
    for (const vector of URI_VECTORS) {
      if (!vector.valid) expect(isWebUrl(vector.data), vector.description).toBe(false);
    }
    expect(isWebUrl('http://foo.bar/?baz=qux#quux')).toBe(true);
    expect(isWebUrl('mailto:John.Doe@example.com')).toBe(false);
    expect(isWebUrl('http://:80')).toBe(false);
    expect(isWebUrl('http://user@')).toBe(false);
    for (const repaired of ['https://müller.de', 'https://example.com/{x}', 'https://example.com/%zz', 'https://exa mple.com']) {
      expect(isWebUrl(repaired), repaired).toBe(false);
    }
  });

  it('date and date-time follow RFC 3339, lowercase t and z and leap seconds included', () => {
    expectVectors(isDate, DATE_VECTORS);
    expectVectors(isDateTime, DATE_TIME_VECTORS);
  });
});

describe('format', () => {
  it.each(FORMATS)('$title', ({ format, is, good, bad, refused, message }) => {
    for (const value of good) expect(is(value), value).toBe(true);
    for (const value of bad) expect(is(value), value).toBe(false);
    expect(check(refused, { type: 'string', format })).toEqual([{ code: 'format', message }]);
  });

  it('ignores unknown formats, including Object.prototype names', () => {
    expect(check('anything', { type: 'string', format: 'phone' })).toEqual([]);
    expect(check('anything', { type: 'string', format: 'toString' })).toEqual([]);
  });

  it('applies only to strings', () => {
    expect(check(5, { format: 'email' })).toEqual([]);
  });
});

describe('minLength and maxLength', () => {
  it('are inclusive bounds', () => {
    const schema: ValueSchema = { type: 'string', minLength: 2, maxLength: 4 };
    expect(check('ab', schema)).toEqual([]);
    expect(check('abcd', schema)).toEqual([]);
    expect(check('a', schema)).toEqual([{ code: 'min_length', message: 'Must be at least 2 characters' }]);
    expect(check('abcde', schema)).toEqual([{ code: 'max_length', message: 'Must be at most 4 characters' }]);
  });

  it('count code points, not UTF-16 units', () => {
    expect(check('😀😀', { type: 'string', maxLength: 2 })).toEqual([]);
    expect(codes(check('😀😀😀', { type: 'string', maxLength: 2 }))).toEqual(['max_length']);
    expect(codes(check('😀', { type: 'string', minLength: 2 }))).toEqual(['min_length']);
    expect(check('😀a', { type: 'string', minLength: 2 })).toEqual([]);
  });

  it('minLength 1 reads "Must not be empty" and counts the empty string', () => {
    expect(check('', { type: 'string', minLength: 1 })).toEqual([{ code: 'min_length', message: 'Must not be empty' }]);
  });

  it('uses grouped numbers and the singular', () => {
    expect(check('ab', { maxLength: 1 })[0]?.message).toBe('Must be at most 1 character');
    expect(check('a'.repeat(1001), { maxLength: 1000 })[0]?.message).toBe('Must be at most 1,000 characters');
  });
});

describe('pattern', () => {
  it('is a JS RegExp with the u flag, unanchored as in JSON Schema', () => {
    expect(check('GB123', { type: 'string', pattern: '^[A-Z]{2}\\d+$' })).toEqual([]);
    expect(check('gb123', { type: 'string', pattern: '^[A-Z]{2}\\d+$' })).toEqual([
      { code: 'pattern', message: 'Enter a value in the expected format' },
    ]);
    expect(check('xx42yy', { pattern: '\\d' })).toEqual([]);
    expect(check('😀', { pattern: '^.$' })).toEqual([]);
    expect(check('é', { pattern: '^\\p{L}$' })).toEqual([]);
  });

  it('ignores an invalid pattern instead of throwing', () => {
    expect(() => compileValueSchema({ pattern: '([a-z' })).not.toThrow();
    expect(check('anything', { pattern: '([a-z' })).toEqual([]);
    // Valid without the u flag, invalid with it.
    expect(check('anything', { pattern: '\\-' })).toEqual([]);
  });

  it('reports every failing string keyword together', () => {
    expect(codes(check('x', { type: 'string', minLength: 3, format: 'email', pattern: '^\\d+$' }))).toEqual([
      'min_length',
      'format',
      'pattern',
    ]);
  });
});

describe('minimum, maximum and multipleOf', () => {
  it('minimum and maximum are inclusive, with grouped numbers in messages', () => {
    const schema: ValueSchema = { type: 'number', minimum: 1000, maximum: 2500000 };
    expect(check(1000, schema)).toEqual([]);
    expect(check(2500000, schema)).toEqual([]);
    expect(check(999.99, schema)).toEqual([{ code: 'minimum', message: 'Must be 1,000 or more' }]);
    expect(check(2500001, schema)).toEqual([{ code: 'maximum', message: 'Must be 2,500,000 or less' }]);
    expect(check(-1, { minimum: 0 })).toEqual([{ code: 'minimum', message: 'Must be 0 or more' }]);
    expect(check(1, { maximum: 0.5 })).toEqual([{ code: 'maximum', message: 'Must be 0.5 or less' }]);
  });

  it('multipleOf tolerates binary floating point', () => {
    const cents: ValueSchema = { type: 'number', multipleOf: 0.01 };
    expect(check(0.1 + 0.2, cents)).toEqual([]);
    expect(check(19.99, cents)).toEqual([]);
    expect(check(1.15, cents)).toEqual([]);
    expect(check(4.35 * 100, cents)).toEqual([]);
    expect(check(123456789.07, cents)).toEqual([]);
    expect(check(0.3, { multipleOf: 0.1 })).toEqual([]);
    expect(check(0.7, { multipleOf: 0.1 })).toEqual([]);
    expect(check(-0.3, { multipleOf: 0.1 })).toEqual([]);
  });

  it('multipleOf still refuses real misses', () => {
    expect(check(1.005, { multipleOf: 0.01 })).toEqual([{ code: 'multiple_of', message: 'Use at most 2 decimal places' }]);
    expect(check(0.15, { multipleOf: 0.1 })).toEqual([{ code: 'multiple_of', message: 'Use at most 1 decimal place' }]);
    expect(check(7, { multipleOf: 5 })).toEqual([{ code: 'multiple_of', message: 'Must be a multiple of 5' }]);
    expect(check(2.5, { multipleOf: 1 })).toEqual([{ code: 'multiple_of', message: 'Must be a whole number' }]);
    expect(check(1000, { multipleOf: 250 })).toEqual([]);
    expect(check(1100, { multipleOf: 250 })[0]?.message).toBe('Must be a multiple of 250');
    expect(check(1, { multipleOf: 0.25 })).toEqual([]);
    expect(codes(check(1.1, { multipleOf: 0.25 }))).toEqual(['multiple_of']);
  });

  it('multipleOf refuses a quotient too large to be a number, rather than waving it through', () => {
    // 1e15 / 1e-300 overflows to Infinity, which used to count as "a whole number of steps".
    expect(codes(check(1e15, { multipleOf: 1e-300 }))).toEqual(['multiple_of']);
    expect(codes(check(Number.MAX_SAFE_INTEGER, { multipleOf: Number.MIN_VALUE }))).toEqual(['multiple_of']);
  });

  it('ignores a non-positive multipleOf', () => {
    expect(check(3, { multipleOf: 0 })).toEqual([]);
    expect(check(3, { multipleOf: -2 })).toEqual([]);
  });

  it('applies number keywords only to numbers and reports them together', () => {
    expect(check('5', { minimum: 10 })).toEqual([]);
    expect(codes(check(7, { minimum: 10, maximum: 5, multipleOf: 2 }))).toEqual(['minimum', 'maximum', 'multiple_of']);
  });
});

describe('arrays: items, minItems and maxItems', () => {
  const tags: ValueSchema = { type: 'array', items: { type: 'string', maxLength: 5 }, minItems: 1, maxItems: 3 };

  it('minItems and maxItems are inclusive', () => {
    expect(check(['a'], tags)).toEqual([]);
    expect(check(['a', 'b', 'c'], tags)).toEqual([]);
    expect(check([], tags)).toEqual([{ code: 'min_items', message: 'Must have at least 1 item' }]);
    expect(check(['a', 'b', 'c', 'd'], tags)).toEqual([{ code: 'max_items', message: 'Must have at most 3 items' }]);
  });

  it('speaks of options when the items are choices', () => {
    const multi: ValueSchema = { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, minItems: 2, maxItems: 2 };
    expect(check(['a'], multi)).toEqual([{ code: 'min_items', message: 'Choose at least 2 options' }]);
    expect(check(['a', 'b', 'c'], multi)).toEqual([{ code: 'max_items', message: 'Choose at most 2 options' }]);
  });

  it('applies items to each item and says which item', () => {
    expect(check(['ok', 'too long', 'fine', 'also long'], { type: 'array', items: { type: 'string', maxLength: 5 } })).toEqual([
      { code: 'max_length', message: 'Item 2: Must be at most 5 characters', item: 1 },
      { code: 'max_length', message: 'Item 4: Must be at most 5 characters', item: 3 },
    ]);
  });

  it('checks item enum, format, type and numbers', () => {
    expect(check(['a', 'z'], { type: 'array', items: { enum: ['a', 'b'] } })).toEqual([
      { code: 'enum', message: 'Item 2: Choose one of the listed options', item: 1 },
    ]);
    expect(check(['a@b.co', 'nope'], { type: 'array', items: { format: 'email' } })).toEqual([
      { code: 'format', message: 'Item 2: Enter a valid email address', item: 1 },
    ]);
    expect(check([1, 2.5], { type: 'array', items: { type: 'integer' } })).toEqual([
      { code: 'type', message: 'Item 2: Must be a whole number', item: 1 },
    ]);
    expect(check([5, 50], { type: 'array', items: { type: 'number', maximum: 10 } })).toEqual([
      { code: 'maximum', message: 'Item 2: Must be 10 or less', item: 1 },
    ]);
  });

  it('treats a top-level enum on a list as the choices of its items', () => {
    const schema: ValueSchema = { type: 'array', enum: ['x', 'y'] };
    expect(check(['x', 'y'], schema)).toEqual([]);
    expect(check(['x', 'q'], schema)).toEqual([{ code: 'enum', message: 'Item 2: Choose one of the listed options', item: 1 }]);
  });

  it('refuses nested lists, objects and nulls as items, naming the item', () => {
    expect(check(['a', ['b']], { type: 'array', items: { type: 'string' } })).toEqual([
      { code: 'type', message: 'Item 2: Must be text', item: 1 },
    ]);
    expect(check([['a'], 'b', null], { type: 'array' })).toEqual([
      { code: 'type', message: 'Item 1: Must be text, a number or yes or no', item: 0 },
      { code: 'type', message: 'Item 3: Must be text, a number or yes or no', item: 2 },
    ]);
    expect(check([{}], {})).toEqual([{ code: 'type', message: 'Item 1: Must be text, a number or yes or no', item: 0 }]);
  });

  it('refuses a list mixing kinds of values, once', () => {
    expect(check(['a', 1, true], { type: 'array' })).toEqual([
      { code: 'type', message: 'All items must be the same kind of value' },
    ]);
    expect(check([1, 2.5], { type: 'array' })).toEqual([]);
  });

  it('refuses a list where the schema wants a scalar, and a scalar where it wants a list', () => {
    expect(check(['a'], { type: 'string' })).toEqual([{ code: 'type', message: 'Must be text' }]);
    expect(check('a', { type: 'array' })).toEqual([{ code: 'type', message: 'Must be a list' }]);
  });

  it('ignores string keywords at the top of a list schema', () => {
    expect(check(['abcdef'], { type: 'array', maxLength: 2 })).toEqual([]);
  });

  it('reports list-level and item-level issues together', () => {
    expect(codes(check(['toolong'], { ...tags, minItems: 2 }))).toEqual(['min_items', 'max_length']);
  });
});

describe('spec limits on top of any schema', () => {
  it('a string of exactly 10,000 characters passes, 10,001 fails', () => {
    expect(check('a'.repeat(10_000), { type: 'string' })).toEqual([]);
    expect(check('a'.repeat(10_001), { type: 'string' })).toEqual([
      { code: 'too_long', message: 'Must be at most 10,000 characters' },
    ]);
    expect(codes(check('a'.repeat(10_001), {}))).toEqual(['too_long']);
  });

  it('applies even when the schema allows longer', () => {
    expect(codes(check('a'.repeat(10_001), { type: 'string', maxLength: 50_000 }))).toEqual(['too_long']);
  });

  it('counts UTF-16 units for the limit, as the answer schema does', () => {
    expect(codes(check('😀'.repeat(5_001), { type: 'string' }))).toEqual(['too_long']);
  });

  it('a list of exactly 100 items passes, 101 fails', () => {
    expect(check(Array.from({ length: 100 }, (_, i) => i), { type: 'array' })).toEqual([]);
    expect(check(Array.from({ length: 101 }, (_, i) => i), { type: 'array' })).toEqual([
      { code: 'too_many_items', message: 'Must have at most 100 items' },
    ]);
    expect(codes(check(new Array<string>(101).fill('a'), { type: 'array', maxItems: 500 }))).toEqual(['too_many_items']);
  });

  it('a string item of exactly 1,000 characters passes, 1,001 fails and names the item', () => {
    expect(check(['a'.repeat(1_000)], { type: 'array' })).toEqual([]);
    expect(check(['ok', 'a'.repeat(1_001)], { type: 'array', items: { type: 'string', maxLength: 5_000 } })).toEqual([
      { code: 'item_too_long', message: 'Item 2: Must be at most 1,000 characters', item: 1 },
    ]);
  });
});

describe('numbers a double cannot hold exactly', () => {
  const message = 'Too large to be kept exactly: use a number between −9,007,199,254,740,991 and 9,007,199,254,740,991';

  it('accepts the largest safe integers and refuses anything beyond, under any schema', () => {
    expect(check(Number.MAX_SAFE_INTEGER, { type: 'integer' })).toEqual([]);
    expect(check(-Number.MAX_SAFE_INTEGER, { type: 'number' })).toEqual([]);
    expect(check(2 ** 53, { type: 'integer' })).toEqual([{ code: 'unsafe_number', message }]);
    expect(check(1.2345678901234568e29, { type: 'number', maximum: 1e40 })).toEqual([{ code: 'unsafe_number', message }]);
    expect(codes(check(-1e300, {}))).toEqual(['unsafe_number']);
    expect(check([1, 2 ** 60], { type: 'array', items: { type: 'integer' } })).toEqual([
      { code: 'unsafe_number', message: `Item 2: ${message}`, item: 1 },
    ]);
  });

  it('keeps small fractions, which round-trip through JSON', () => {
    expect(check(0.1, { type: 'number' })).toEqual([]);
    expect(check(1e-300, { type: 'number' })).toEqual([]);
  });
});

describe('text hygiene: NUL, lone surrogates and bidi controls', () => {
  it('refuses each with a message that says what and why', () => {
    expect(check('Acme\u0000Ltd', { type: 'string' })).toEqual([
      { code: 'unsafe_text', message: 'Contains an invisible null character (U+0000), which cannot be saved: remove it' },
    ]);
    expect(check('half \ud83d of a smile', { type: 'string' })).toEqual([
      {
        code: 'unsafe_text',
        message: 'Contains a broken character (half of an emoji or symbol), which cannot be saved: type it again',
      },
    ]);
    expect(check('invoice\u202Efdp.exe', {})).toEqual([
      {
        code: 'unsafe_text',
        message: 'Contains an invisible text-direction control (U+202E), which can disguise what the text says: remove it',
      },
    ]);
    expect(codes(check(['ok', 'x\u2066y'], { type: 'array' }))).toEqual(['unsafe_text']);
  });

  it('finds every kind, a trailing or leading lone surrogate included, and passes clean text', () => {
    for (const [text, kind] of [
      ['\u0000', 'nul'],
      ['a\udc00', 'lone_surrogate'],
      ['\ud800', 'lone_surrogate'],
      ['\udc00\ud800', 'lone_surrogate'],
      ['\u202a', 'bidi_control'],
      ['\u2069', 'bidi_control'],
    ] as const) {
      expect(findUnsafeText(text)?.kind, JSON.stringify(text)).toBe(kind);
    }
    for (const clean of ['', 'plain', 'emoji 😀 ok', 'עברית\u200fשלום', 'tab\tand\nnewline', 'Zoë & Åsa']) {
      expect(findUnsafeText(clean), JSON.stringify(clean)).toBeNull();
    }
  });
});

describe('robustness', () => {
  it('ignores unknown keywords', () => {
    const schema = { type: 'string', 'x-widget': 'textarea', exclusiveMinimum: 3, const: 'q' } as ValueSchema;
    expect(check('anything', schema)).toEqual([]);
  });

  it('ignores keywords of the wrong JSON type (schemas may come straight from JSON)', () => {
    const schema = { type: 'string', minLength: '3', maxLength: -1, pattern: 5, format: 7, enum: 'a' } as unknown as ValueSchema;
    expect(check('x', schema)).toEqual([]);
  });

  it('issues are frozen so shared ones cannot be altered', () => {
    const [found] = check(5, { type: 'string' });
    expect(Object.isFrozen(found)).toBe(true);
  });

  it('validates a full-size value quickly', () => {
    const validate = compileValueSchema({ type: 'string', format: 'email', maxLength: 255 });
    const started = performance.now();
    for (let i = 0; i < 200; i++) validate(`${'a'.repeat(9_990)}@b.co`);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
