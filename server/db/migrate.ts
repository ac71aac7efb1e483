import 'server-only';
import { MIGRATIONS } from './migrations';
import type { Migration } from './migrations/types';
import type { Db } from './types';

/**
 * Advisory lock key shared by every instance migrating this database (an arbitrary constant:
 * 'bffm' in ASCII). Taken with pg_advisory_xact_lock, so it is released with the transaction.
 */
const MIGRATION_LOCK_KEY = 0x6266_666d;

function checkOrder(migrations: readonly Migration[]): void {
  migrations.forEach((m, i) => {
    const previous = migrations[i - 1];
    if (previous && m.version <= previous.version) {
      throw new Error(`migration ${m.version}-${m.name} is out of order after ${previous.version}-${previous.name}`);
    }
  });
}

/**
 * Applies the pending migrations in order, all in one transaction: either the schema moves to the
 * newest version or it stays as it was. Several instances starting together queue on the advisory
 * lock; whoever comes second re-reads schema_migrations after the first committed and finds nothing to do.
 * Returns the versions this call applied.
 */
export async function runMigrations(db: Db, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  checkOrder(migrations);
  return db.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`);
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version    integer PRIMARY KEY,
      name       text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const rows = await tx.query<{ version: number }>('SELECT version FROM schema_migrations');
    const applied = new Set(rows.map((r) => r.version));
    const done: number[] = [];
    for (const m of migrations) {
      if (applied.has(m.version)) continue;
      await tx.exec(m.sql);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      done.push(m.version);
    }
    return done;
  });
}
