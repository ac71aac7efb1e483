import 'server-only';
import { perDb } from './per-db';
import type { Db } from './types';

const dirs = perDb<{ dir: string | null }>('embedded-data-dir', () => ({ dir: null }));

/** Says which DATA_DIR an embedded database lives in (createDb does, for one opened on disk). */
export function setEmbeddedDataDir(db: Db, dataDir: string) {
  dirs.of(db).dir = dataDir;
}

/** The DATA_DIR of an embedded database on disk, where the app may keep files beside it; null for PostgreSQL and memory. */
export const embeddedDataDirOf = (db: Db): string | null => dirs.of(db).dir;
