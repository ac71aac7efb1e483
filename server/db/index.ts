import 'server-only';

export { createDb, EMBEDDED_DB_DIRNAME } from './create-db';
export { closeDb, getDb } from './get-db';
export { runMigrations } from './migrate';
export { EmbeddedDbInUseError } from './pglite-lock';
export { isUniqueViolation } from './errors';
export type { Db, DbConfig, DbKind, SqlParam } from './types';
