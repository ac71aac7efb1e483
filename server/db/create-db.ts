import 'server-only';
import { join } from 'node:path';
import { setEmbeddedDataDir } from './embedded-dir';
import { runMigrations } from './migrate';
import { openPglite } from './pglite-driver';
import { openPostgres } from './postgres-driver';
import type { Db, DbConfig } from './types';

/** Name of the embedded database's directory inside DATA_DIR. */
export const EMBEDDED_DB_DIRNAME = 'bff-db';

function postgresUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  const scheme = url.slice(0, url.indexOf(':'));
  if (scheme === 'postgres' || scheme === 'postgresql') return url;
  // Say so rather than quietly falling back to the embedded database on a typo.
  throw new Error(`DATABASE_URL must be a postgres:// or postgresql:// URL (got scheme "${scheme}")`);
}

/**
 * Opens the database the configuration names and brings its schema up to date. PostgreSQL when a
 * URL is given; otherwise PGlite in `<dataDir>/bff-db` (dataDir defaults to `<cwd>/.data`, null = memory).
 */
export async function createDb(config: DbConfig = {}): Promise<Db> {
  const url = postgresUrl(config.url);
  const dataDir = config.dataDir === undefined ? join(process.cwd(), '.data') : config.dataDir;
  const db = url ? openPostgres(url) : await openPglite(dataDir === null ? null : join(dataDir, EMBEDDED_DB_DIRNAME));
  if (!url && dataDir !== null) setEmbeddedDataDir(db, dataDir);
  try {
    await runMigrations(db);
  } catch (err) {
    await db.close();
    throw err;
  }
  return db;
}
