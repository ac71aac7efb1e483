import { describe, expect, it } from 'vitest';
import { oncePerRevision } from '@/server/once-per-revision';

describe('oncePerRevision', () => {
  it('is true once per newer revision of a key, and forgets the oldest keys past its size', () => {
    const first = oncePerRevision(2);
    expect([first('a', 1), first('a', 1), first('a', 0), first('a', 2)]).toEqual([true, false, false, true]);
    expect([first('b', 1), first('c', 1)]).toEqual([true, true]);
    // 'a' was the oldest of three: forgotten, so its revision counts as new again.
    expect(first('a', 2)).toBe(true);
    expect(first('c', 1)).toBe(false);
  });
});
