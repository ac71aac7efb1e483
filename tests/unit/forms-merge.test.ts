import { describe, expect, it } from 'vitest';
import {
  equalityFor,
  formModel,
  threeWayMerge,
  valuesEqual,
  type FormValue,
  type FormValues,
  type MergeResult,
} from '@/lib/forms';
import { mulberry32 } from '@/server/sandbox/controls/faults';
import { buildFundingContract } from '@/server/sandbox/seed/funding-contract';

const merge = (base: FormValues, mine: FormValues, theirs: FormValues) => threeWayMerge({ base, mine, theirs });

describe('three-way merge, field by field', () => {
  it.each<[string, FormValue, FormValue, FormValue, 'unchanged' | 'resend' | 'theirs' | 'same' | 'conflict']>([
    ['nobody changed it', 'a', 'a', 'a', 'unchanged'],
    ['only I changed it', 'a', 'b', 'a', 'resend'],
    ['only they changed it', 'a', 'a', 'c', 'theirs'],
    ['both changed it the same way', 'a', 'b', 'b', 'same'],
    ['both changed it differently', 'a', 'b', 'c', 'conflict'],
    ['I cleared it', 'a', null, 'a', 'resend'],
    ['they cleared it', 'a', 'a', null, 'theirs'],
    ['I cleared it, they changed it', 'a', '', 'c', 'conflict'],
    ['both cleared it, differently spelt', 'a', '', null, 'same'],
    ['I answered a blank', null, 'b', null, 'resend'],
    ['I typed the number they saved', 1, '1,234.50', 1234.5, 'same'],
    ['my reformatting is no change', 1234.5, '1,234.50', 99, 'theirs'],
    ['lists: only they changed', ['a'], ['a'], ['a', 'b'], 'theirs'],
    ['lists: both changed differently', ['a'], ['b'], ['c'], 'conflict'],
    ['false is an answer, not a blank', null, false, null, 'resend'],
    ['0 is an answer, not a blank', 5, 0, 5, 'resend'],
  ])('%s', (_what, base, mine, theirs, outcome) => {
    const r = merge({ f: base }, { f: mine }, { f: theirs });
    const expected: Record<typeof outcome, Omit<MergeResult, 'conflicts' | 'theirsApplied'> & { conflicts: number; theirs: number }> = {
      unchanged: { merged: { f: mine }, resend: {}, conflicts: 0, theirs: 0 },
      resend: { merged: { f: mine }, resend: { f: mine }, conflicts: 0, theirs: 0 },
      theirs: { merged: { f: theirs }, resend: {}, conflicts: 0, theirs: 1 },
      same: { merged: { f: mine }, resend: {}, conflicts: 0, theirs: 0 },
      conflict: { merged: { f: mine }, resend: {}, conflicts: 1, theirs: 0 },
    };
    const want = expected[outcome];
    expect(r.merged).toEqual(want.merged);
    expect(r.resend).toEqual(want.resend);
    expect(r.conflicts).toHaveLength(want.conflicts);
    expect(r.theirsApplied).toHaveLength(want.theirs);
    if (outcome === 'conflict') expect(r.conflicts[0]).toEqual({ name: 'f', base, mine, theirs });
    if (outcome === 'theirs') expect(r.theirsApplied[0]).toEqual({ name: 'f', base, theirs });
  });

  it('treats a name missing on one side as empty there', () => {
    const r = merge({}, { new_field: 'typed' }, { their_field: 'theirs' });
    expect(r.resend).toEqual({ new_field: 'typed' });
    expect(r.theirsApplied).toEqual([{ name: 'their_field', base: null, theirs: 'theirs' }]);
    expect(r.merged).toEqual({ new_field: 'typed', their_field: 'theirs' });
  });

  it('merges many fields at once', () => {
    const r = merge(
      { a: '1', b: '1', c: '1', d: '1' },
      { a: '1', b: 'mine', c: 'mine', d: 'same' },
      { a: 'theirs', b: '1', c: 'theirs', d: 'same' },
    );
    expect(r.merged).toEqual({ a: 'theirs', b: 'mine', c: 'mine', d: 'same' });
    expect(r.resend).toEqual({ b: 'mine' });
    expect(r.theirsApplied.map((t) => t.name)).toEqual(['a']);
    expect(r.conflicts.map((c) => c.name)).toEqual(['c']);
  });

  it('uses field-aware equality when given one (option order, unticked declarations)', () => {
    const equal = equalityFor(formModel(buildFundingContract()));
    const purpose = 'a.funding_purpose.funding_purpose.value';
    const declaration = 'a.decl_accurate.decl_accurate.value';
    const r = threeWayMerge(
      {
        base: { [purpose]: ['equipment', 'other'], [declaration]: null },
        mine: { [purpose]: ['other', 'equipment'], [declaration]: false },
        theirs: { [purpose]: ['property'], [declaration]: true },
      },
      { equal },
    );
    expect(r.conflicts).toEqual([]);
    expect(r.resend).toEqual({});
    expect(r.merged).toEqual({ [purpose]: ['property'], [declaration]: true });
  });
});

// Values chosen to collide often: blanks of every spelling, numbers and their typed forms, lists.
const POOL: readonly FormValue[] = [null, '', ' ', 'a', 'b', 'c', 0, 1, 1234.5, '1,234.50', '1234.5', true, false, [], ['a'], ['a', 'b'], ['b', 'a']];

function scenario(random: () => number) {
  const pick = () => POOL[Math.floor(random() * POOL.length)] ?? null;
  const names = Array.from({ length: 1 + Math.floor(random() * 12) }, (_, i) => `a.q${i}.q${i}.value`);
  const base: Record<string, FormValue> = {};
  const mine: Record<string, FormValue> = {};
  const theirs: Record<string, FormValue> = {};
  for (const name of names) {
    // Sometimes a side lacks the name altogether (a field new to it).
    if (random() < 0.9) base[name] = pick();
    const b = base[name] ?? null;
    mine[name] = random() < 0.5 ? b : pick();
    if (random() < 0.95) theirs[name] = random() < 0.5 ? b : pick();
  }
  return { base, mine, theirs, names };
}

describe('property: nothing typed is ever dropped (seeded)', () => {
  const SEEDS = 500;
  const eq = (a: FormValue | undefined, b: FormValue | undefined) => valuesEqual(a, b);

  it('every change of mine is re-sent, in conflict, or already what they have', () => {
    for (let seed = 1; seed <= SEEDS; seed++) {
      const { base, mine, theirs, names } = scenario(mulberry32(seed));
      const r = threeWayMerge({ base, mine, theirs });
      const conflicted = new Set(r.conflicts.map((c) => c.name));
      for (const name of names) {
        if (eq(mine[name], base[name])) continue;
        const kept = Object.hasOwn(r.resend, name) || conflicted.has(name) || eq(mine[name], theirs[name]);
        expect(kept, `seed ${seed}, ${name}`).toBe(true);
        // And the person still sees it.
        expect(eq(r.merged[name], mine[name]), `seed ${seed}, ${name} shown`).toBe(true);
        if (Object.hasOwn(r.resend, name)) expect(r.resend[name], `seed ${seed}, ${name} resent as typed`).toEqual(mine[name] ?? null);
      }
    }
  });

  it('conflicts are exactly the fields both sides changed to different answers', () => {
    for (let seed = 1; seed <= SEEDS; seed++) {
      const { base, mine, theirs, names } = scenario(mulberry32(seed));
      const r = threeWayMerge({ base, mine, theirs });
      const expected = names.filter(
        (n) => !eq(mine[n], base[n]) && !eq(theirs[n], base[n]) && !eq(mine[n], theirs[n]),
      );
      expect(r.conflicts.map((c) => c.name).sort(), `seed ${seed}`).toEqual(expected.sort());
      for (const c of r.conflicts) {
        expect(c.mine).toEqual(mine[c.name] ?? null);
        expect(c.theirs).toEqual(theirs[c.name] ?? null);
      }
    }
  });

  it('their changes are taken only where I changed nothing', () => {
    for (let seed = 1; seed <= SEEDS; seed++) {
      const { base, mine, theirs } = scenario(mulberry32(seed));
      const r = threeWayMerge({ base, mine, theirs });
      for (const t of r.theirsApplied) {
        expect(eq(mine[t.name], base[t.name]), `seed ${seed}`).toBe(true);
        expect(eq(r.merged[t.name], theirs[t.name]), `seed ${seed}`).toBe(true);
      }
    }
  });
});
