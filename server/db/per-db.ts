import 'server-only';
import type { Db } from './types';

/**
 * One T per database handle in the process, kept on globalThis like the database itself (getDb), so every
 * bundle of the Next server that asks gets the same one. Handles are few (the app's one, a test's few).
 */
export function perDb<T>(name: string, make: (db: Db) => T): { of(db: Db): T; all(): Iterable<T> } {
  const key = Symbol.for(`intake-bff.per-db.${name}`);
  const holder = globalThis as typeof globalThis & { [k: symbol]: Map<Db, T> | undefined };
  const map = () => (holder[key] ??= new Map<Db, T>());
  return {
    of(db) {
      let value = map().get(db);
      if (value === undefined) map().set(db, (value = make(db)));
      return value;
    },
    all: () => map().values(),
  };
}
