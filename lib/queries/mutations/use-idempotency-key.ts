import { useMemo, useRef } from 'react';
import { outcomeUnknown } from '@/lib/api/api-error';

/**
 * Idempotency-Keys for one kind of write: a new key per request, except that retrying the very same request
 * after an unknown outcome (it may have reached the Portal) reuses its key, so it cannot happen twice.
 */
export function useIdempotencyKey() {
  const last = useRef<{ key: string; request: string } | null>(null);
  return useMemo(
    () => ({
      /** The key for this request; `request` says what makes two requests the same. */
      keyFor(request: string): string {
        const key = last.current?.request === request ? last.current.key : crypto.randomUUID();
        last.current = { key, request };
        return key;
      },
      /** After the outcome: only an unknown one keeps the key for a retry. */
      settled(error: unknown) {
        if (!outcomeUnknown(error)) last.current = null;
      },
    }),
    [],
  );
}
