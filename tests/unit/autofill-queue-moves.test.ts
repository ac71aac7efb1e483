import { describe, expect, it } from 'vitest';
import { afterDecision, nearestWaiting, nextWaiting } from '@/components/autofill/queue-moves';

// Cards in display order: true waits for a decision, false is accepted, dismissed or stale.
const queue = [true, false, false, true, true, false];

describe('the review queue moves between waiting suggestions', () => {
  it('j and k skip decided cards', () => {
    expect(nextWaiting(queue, 0, 1)).toBe(3);
    expect(nextWaiting(queue, 3, 1)).toBe(4);
    expect(nextWaiting(queue, 3, -1)).toBe(0);
    expect(nextWaiting(queue, 4, 1)).toBeNull();
    expect(nextWaiting(queue, 0, -1)).toBeNull();
  });

  it('coming back to the queue lands on the card itself, or the nearest waiting one', () => {
    expect(nearestWaiting(queue, 0)).toBe(0);
    expect(nearestWaiting(queue, 1)).toBe(3);
    expect(nearestWaiting(queue, 5)).toBe(4);
    expect(nearestWaiting(queue, 99)).toBe(4);
    expect(nearestWaiting([false, false], 0)).toBeNull();
    expect(nearestWaiting([], 0)).toBeNull();
  });

  it('after a decision focus goes on to the next waiting card, else back to the last one', () => {
    expect(afterDecision(queue, 0)).toBe(3);
    expect(afterDecision(queue, 4)).toBe(3);
    expect(afterDecision([true], 0)).toBeNull();
  });
});
