import { describe, expect, it } from 'vitest';
import { BoundedCache } from '@/lib/bounded-cache';

describe('BoundedCache', () => {
  it('keeps at most max entries, dropping the least recently stored', () => {
    const c = new BoundedCache<string, number>(2);
    c.set('a', 1);
    c.set('b', 2);
    c.set('a', 3); // storing again makes `a` the most recent
    c.set('c', 4);
    expect([c.get('a'), c.get('b'), c.get('c'), c.size]).toEqual([3, undefined, 4, 2]);
    c.delete('a');
    expect([c.get('a'), c.size]).toEqual([undefined, 1]);
  });
});
