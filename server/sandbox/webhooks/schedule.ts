/** Longest wait between two attempts, in sandbox clock time. */
export const MAX_RETRY_DELAY_MS = 60 * 60 * 1000;

/**
 * Delay before attempt `n` (1-based), in sandbox clock milliseconds: 0 for the first, then 1 s, 2 s, 4 s, 8 s …
 * doubling up to an hour. No jitter, so tests see the same schedule every run.
 */
export function retryDelayMs(attempt: number): number {
  if (attempt <= 1) return 0;
  return Math.min(MAX_RETRY_DELAY_MS, 1000 * 2 ** (attempt - 2));
}

/** The whole schedule for `maxAttempts` attempts: the delay before each one. */
export const deliverySchedule = (maxAttempts: number) => Array.from({ length: maxAttempts }, (_, i) => retryDelayMs(i + 1));
