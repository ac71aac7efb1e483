import 'server-only';
import { processWide } from '@/server/process-wide';
import type { Db } from './types';

/**
 * One T per database handle in the process (server/process-wide), so every bundle of the Next server that
 * asks gets the same one. Handles are few (the app's one, a test's few).
 */
export function perDb<T>(name: string, make: (db: Db) => T): { of(db: Db): T; all(): Iterable<T> } {
  const map = processWide(`per-db.${name}`, () => new Map<Db, T>());
  return {
    of(db) {
      let value = map.get(db);
      if (value === undefined) map.set(db, (value = make(db)));
      return value;
    },
    all: () => map.values(),
  };
}
