import { describe, expect, it } from 'vitest';
import { createDb } from '@/server/db/create-db';
import { runMigrations } from '@/server/db/migrate';
import { MIGRATIONS } from '@/server/db/migrations';
import { openPostgres } from '@/server/db/postgres-driver';
import type { Migration } from '@/server/db/migrations/types';
import { testDrivers, useTestDb } from '@/tests/support/postgres';

const EXPECTED_TABLES = ['answer_history', 'answer_values', 'application_left', 'audit_log', 'change_request_replies', 'change_requests', 'client_welcomes', 'invitations', 'outbox', 'reminder_steps', 'review_events', 'review_marks', 'review_states', 'schema_migrations', 'sessions', 'sign_in_attempts', 'upload_slots', 'users', 'webhook_deliveries',
  'workspace_businesses', 'workspace_deals', 'workspace_projects', 'workspace_suggestions', 'workspace_sync'];

// Not idempotent on purpose (no IF NOT EXISTS): applying it twice fails, so a race would show.
const probe: Migration = { version: 9001, name: 'probe', sql: 'CREATE TABLE migration_probe (x int); INSERT INTO migration_probe VALUES (1);' };

describe.each(testDrivers())('migrations on %s', (driver) => {
  const t = useTestDb(driver);

  it('creates every table and records each version once', async () => {
    const tables = await t.db.query<{ tablename: string }>(
      `SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename`,
    );
    expect(tables.map((r) => r.tablename)).toEqual(EXPECTED_TABLES);
    const versions = await t.db.query<{ version: number; name: string }>('SELECT version, name FROM schema_migrations ORDER BY version');
    expect(versions).toEqual(MIGRATIONS.map((m) => ({ version: m.version, name: m.name })));
  });

  it('is idempotent: a second run applies nothing', async () => {
    expect(await runMigrations(t.db)).toEqual([]);
    expect(await runMigrations(t.db)).toEqual([]);
  });

  it('applies a blank database in order, then only what is new', async () => {
    const { db } = await t.blank();
    expect(await runMigrations(db)).toEqual(MIGRATIONS.map((m) => m.version));
    expect(await runMigrations(db, [...MIGRATIONS, probe])).toEqual([probe.version]);
    expect(await runMigrations(db, [...MIGRATIONS, probe])).toEqual([]);
  });

  it('rolls back every migration of a run when one fails', async () => {
    const { db } = await t.blank();
    const broken: Migration = { version: 9002, name: 'broken', sql: 'CREATE TABLE half_done (x int); SELECT no_such_function();' };
    await expect(runMigrations(db, [...MIGRATIONS, broken])).rejects.toThrow();
    expect(await db.one(`SELECT to_regclass('users') AS t`)).toEqual({ t: null });
    expect(await db.one(`SELECT to_regclass('half_done') AS t`)).toEqual({ t: null });
  });

  it('refuses migrations listed out of order', async () => {
    const { db } = await t.blank();
    await expect(runMigrations(db, [probe, ...MIGRATIONS])).rejects.toThrow(/out of order/);
  });

  it('lets several instances migrate the same database at once, each migration applied exactly once', async () => {
    const blank = await t.blank();
    // PGlite is one process-local database: "several instances" are concurrent callers on it. With
    // PostgreSQL they are separate pools, i.e. separate BFF instances starting together.
    const instances =
      blank.url === null
        ? [blank.db, blank.db, blank.db]
        : [blank.db, openPostgres(blank.url), openPostgres(blank.url)];
    try {
      const results = await Promise.all(instances.map((db) => runMigrations(db, [...MIGRATIONS, probe])));
      const applied = results.flat().sort((a, b) => a - b);
      expect(applied).toEqual([...MIGRATIONS.map((m) => m.version), probe.version]);
      expect(await blank.db.query('SELECT x FROM migration_probe')).toEqual([{ x: 1 }]);
    } finally {
      await Promise.all(instances.filter((db) => db !== blank.db).map((db) => db.close()));
    }
  });

  // Several instances share one database only with PostgreSQL (the embedded one is single-process).
  if (driver === 'postgres') {
    it('createDb from several instances at once leaves one consistent schema', async () => {
      const { url } = await t.blank();
      const dbs = await Promise.all([1, 2, 3].map(() => createDb({ url })));
      try {
        const versions = await dbs[0]!.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
        expect(versions.map((v) => v.version)).toEqual(MIGRATIONS.map((m) => m.version));
      } finally {
        await Promise.all(dbs.map((db) => db.close()));
      }
    });
  }
});
