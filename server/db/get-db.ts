import 'server-only';
import { tracedDb } from '@/server/ops/traced-db';
import { createDb } from './create-db';
import { embeddedDataDirOf, setEmbeddedDataDir } from './embedded-dir';
import type { Db, DbConfig } from './types';

// Kept on globalThis, not in a module variable: Next's dev server re-evaluates modules on every edit,
// and a second PGlite on the same directory (or a second pg pool per edit) must not appear.
const KEY = Symbol.for('intake-bff.db');
type Holder = typeof globalThis & { [KEY]?: Promise<Db> };

/** The database with a span per query when tracing is on (still where createDb said it lives). */
function withSpans(db: Db): Db {
  const traced = tracedDb(db);
  const dir = embeddedDataDirOf(db);
  if (traced !== db && dir) setEmbeddedDataDir(traced, dir);
  return traced;
}

/**
 * The process-wide database, opened and migrated on first use. The first caller's config wins;
 * a failed open is forgotten so the next request tries again.
 */
export function getDb(config: DbConfig): Promise<Db> {
  const holder = globalThis as Holder;
  const existing = holder[KEY];
  if (existing) return existing;
  const opening = createDb(config).then(withSpans).catch((err: unknown) => {
    if (holder[KEY] === opening) delete holder[KEY];
    throw err;
  });
  holder[KEY] = opening;
  return opening;
}

/** Closes the process-wide database (shutdown, tests); the next getDb opens a new one. */
export async function closeDb(): Promise<void> {
  const holder = globalThis as Holder;
  const existing = holder[KEY];
  delete holder[KEY];
  // One that failed to open has nothing to close.
  const db = await existing?.catch(() => null);
  await db?.close();
}
