import { describe, expect, it } from 'vitest';
import { diffSide, wordDiff } from '@/components/autofill/word-diff';

describe('word diff of a current and a proposed answer', () => {
  it('marks the words that differ and keeps the rest', () => {
    expect(wordDiff('Harbour Street Coffee', 'Harbour Street Café')).toEqual([
      { kind: 'same', text: 'Harbour Street ' },
      { kind: 'removed', text: 'Coffee' },
      { kind: 'added', text: 'Café' },
    ]);
  });

  it('folds the space between two changed words into one change on each side', () => {
    const parts = wordDiff('Someone Else Ltd', 'Stale Test Ltd');
    expect(diffSide(parts, 'removed')).toEqual([
      { kind: 'removed', text: 'Someone Else' },
      { kind: 'same', text: ' Ltd' },
    ]);
    expect(diffSide(parts, 'added')).toEqual([
      { kind: 'added', text: 'Stale Test' },
      { kind: 'same', text: ' Ltd' },
    ]);
  });

  it('shows an empty side as all added or all removed, and equal texts as unchanged', () => {
    expect(wordDiff('', 'New text')).toEqual([{ kind: 'added', text: 'New text' }]);
    expect(wordDiff('Old text', '')).toEqual([{ kind: 'removed', text: 'Old text' }]);
    expect(wordDiff('Same words', 'Same words')).toEqual([{ kind: 'same', text: 'Same words' }]);
  });
});
