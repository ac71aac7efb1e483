import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RefreshQueue, type RefreshTarget } from '@/server/read-model/refresh';

/* The read model's refresh queue (server/read-model/refresh.ts): one read per burst of writes, at its end. */

describe('refresh queue', () => {
  let reads: Array<{ at: number; target: RefreshTarget }>;
  let queue: RefreshQueue;
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
    reads = [];
    queue = new RefreshQueue(async (target) => void reads.push({ at: Date.now(), target }));
  });
  afterEach(() => vi.useRealTimers());

  const writeEvery = async (ms: number, until: number, applicationId = 'ciappl_a') => {
    while (Date.now() < until) {
      queue.add({ applicationId }, 1_000);
      await vi.advanceTimersByTimeAsync(ms);
    }
  };

  it('reads a business once, a second after a burst of writes ends', async () => {
    await writeEvery(300, 3_000);
    expect(reads).toEqual([]);
    await vi.advanceTimersByTimeAsync(2_000);
    // The last write was at 2.7 s.
    expect(reads.map((r) => r.at)).toEqual([3_700]);
    expect(reads[0]!.target).toEqual({ applicationId: 'ciappl_a' });
  });

  it('still reads a burst that never pauses, every five seconds', async () => {
    await writeEvery(200, 12_000);
    expect(reads.map((r) => r.at)).toEqual([5_000, 10_000]);
  });

  it('keeps bursts of different applications apart, and reads an event’s target at once', async () => {
    queue.add({ applicationId: 'ciappl_a' }, 1_000);
    await vi.advanceTimersByTimeAsync(500);
    queue.add({ applicationId: 'ciappl_b' }, 1_000);
    queue.add({ businessId: 'biz_c' });
    await vi.advanceTimersByTimeAsync(2_000);
    expect(reads.map((r) => [r.at, r.target])).toEqual([
      [500, { businessId: 'biz_c' }],
      [1_000, { applicationId: 'ciappl_a' }],
      [1_500, { applicationId: 'ciappl_b' }],
    ]);
  });
});
