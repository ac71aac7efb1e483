import { describe, expect, it } from 'vitest';
import { newId } from '@/server/db/ids';

describe('record ids', () => {
  it('are the prefix and 96 random bits, none repeated across many refills of the random pool', () => {
    const ids = Array.from({ length: 5_000 }, () => newId('msg'));
    for (const id of ids) expect(id).toMatch(/^msg_[0-9a-f]{24}$/);
    expect(new Set(ids).size).toBe(ids.length);
    // Every byte value turns up in some position: the bytes are drawn, not a counter or a fixed pattern.
    const bytes = new Set(ids.flatMap((id) => id.slice(4).match(/../g)!));
    expect(bytes.size).toBe(256);
  });
});
