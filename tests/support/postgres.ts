// Test databases for both drivers. Every database test runs once on PGlite (always) and once on
// PostgreSQL. PostgreSQL comes from, in order: the cluster started by postgres-global-setup.ts (shared
// by all files), TEST_DATABASE_URL, or a throwaway cluster this worker starts from the PostgreSQL
// binaries on the machine. Each test file gets its own schema, so files can run in parallel on one
// server. Without PostgreSQL the postgres variants fail when CI=true and are left out otherwise.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, inject } from 'vitest';
import { createDb } from '@/server/db/create-db';
import { runMigrations } from '@/server/db/migrate';
import { openPglite } from '@/server/db/pglite-driver';
import { openPostgres } from '@/server/db/postgres-driver';
import type { Db } from '@/server/db/types';
import { adminQuery, withSearchPath } from './pg-admin';

type Driver = 'pglite' | 'postgres';

/** What the global setup hands to the test files (see postgres-global-setup.ts). */
export interface ProvidedPostgres {
  url: string | null;
  error: string | null;
}

declare module 'vitest' {
  export interface ProvidedContext {
    testPostgres: ProvidedPostgres;
  }
}

import { findPostgresBinDir, startPostgresCluster, type PostgresCluster } from './postgres-cluster';

export { findPostgresBinDir, startPostgresCluster, type PostgresCluster };

// ---------------------------------------------------------------------------------------------
// Which PostgreSQL the tests use

const isCi = () => /^(1|true|yes)$/i.test(process.env.CI ?? '');

type PostgresSource = { url: string } | { start: string } | { error: string } | null;

function postgresSource(): PostgresSource {
  const provided = inject('testPostgres') as ProvidedPostgres | undefined;
  if (provided?.url) return { url: provided.url };
  if (provided?.error) return { error: provided.error };
  if (process.env.TEST_DATABASE_URL) return { url: process.env.TEST_DATABASE_URL };
  const binDir = findPostgresBinDir();
  if (binDir) return { start: binDir };
  return null;
}

/**
 * The drivers to run database tests on. PostgreSQL is listed whenever it can be had, and always in
 * CI, where its absence makes those tests fail instead of vanishing.
 */
export function testDrivers(): Driver[] {
  if (postgresSource() !== null || isCi()) return ['pglite', 'postgres'];
  console.warn('PostgreSQL not found (no TEST_DATABASE_URL, no initdb/pg_ctl): database tests run on PGlite only');
  return ['pglite'];
}

// One fallback cluster per worker, shared by the test files it runs, stopped after the last of them.
let ownCluster: Promise<PostgresCluster> | null = null;
let ownClusterUsers = 0;

async function acquirePostgresUrl(): Promise<string> {
  const source = postgresSource();
  if (source === null) throw new Error('PostgreSQL is required (CI=true) but neither TEST_DATABASE_URL nor initdb/pg_ctl is available');
  if ('error' in source) throw new Error(`PostgreSQL could not be started by the global setup: ${source.error}`);
  if ('url' in source) return source.url;
  ownClusterUsers++;
  ownCluster ??= startPostgresCluster(source.start);
  return (await ownCluster).url;
}

async function releasePostgres(): Promise<void> {
  if (!ownCluster) return;
  if (--ownClusterUsers > 0) return;
  const cluster = ownCluster;
  ownCluster = null;
  (await cluster).stop();
}

export { withSearchPath };

// ---------------------------------------------------------------------------------------------
// PGlite: start from a dump of a blank cluster instead of running initdb in every file (~0.7 s
// instead of ~5 s). The dump is cached in the temp dir per PGlite version and written atomically,
// so parallel workers may race to create it harmlessly. It holds no schema: migrations always run.

async function pgliteTemplate(): Promise<Blob> {
  const pkg = JSON.parse(readFileSync(join(process.cwd(), 'node_modules/@electric-sql/pglite/package.json'), 'utf8')) as { version: string };
  const path = join(tmpdir(), `intake-bff-pglite-blank-${pkg.version}.tar`);
  if (existsSync(path)) return new Blob([readFileSync(path)]);
  const { PGlite } = await import('@electric-sql/pglite');
  const blank = await PGlite.create();
  const dump = await blank.dumpDataDir('none');
  await blank.close();
  const partial = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
  renameSync(partial, path);
  return dump;
}

/** A fresh in-memory PGlite, not yet migrated. */
async function openBlankPglite(): Promise<Db> {
  return openPglite(null, { loadDataDir: await pgliteTemplate() });
}

// ---------------------------------------------------------------------------------------------
// Per-file database lifecycle

interface TestDb {
  /** The migrated database, emptied before each test. */
  readonly db: Db;
  /** PostgreSQL only: a URL to the same schema, for opening further instances (concurrency tests). */
  readonly url: string | null;
  /** A second, independent, not-yet-migrated database of the same driver (its own schema or PGlite). */
  blank(): Promise<{ db: Db; url: string | null }>;
}

function newSchemaName(): string {
  return `t_${createHash('sha256').update(randomBytes(16)).digest('hex').slice(0, 16)}`;
}

/**
 * Registers beforeAll/beforeEach/afterAll hooks in the current describe block: opens a migrated
 * database on `driver`, truncates every table before each test, and drops it all at the end.
 */
export function useTestDb(driver: Driver): TestDb {
  let db: Db | null = null;
  let url: string | null = null;
  let baseUrl: string | null = null;
  const schemas: string[] = [];
  const extra: Db[] = [];

  const newSchema = async (): Promise<string> => {
    if (!baseUrl) throw new Error('PostgreSQL not acquired');
    const schema = newSchemaName();
    await adminQuery(baseUrl, `CREATE SCHEMA ${schema}`);
    schemas.push(schema);
    return withSearchPath(baseUrl, schema);
  };

  beforeAll(async () => {
    if (driver === 'postgres') {
      baseUrl = await acquirePostgresUrl();
      url = await newSchema();
      db = await createDb({ url });
    } else {
      db = await openBlankPglite();
      await runMigrations(db);
    }
  });

  beforeEach(async () => {
    if (!db) throw new Error('test database not open');
    const tables = await db.query<{ tablename: string }>(
      `SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename <> 'schema_migrations'`,
    );
    if (tables.length) await db.exec(`TRUNCATE ${tables.map((t) => t.tablename).join(', ')} RESTART IDENTITY CASCADE`);
  });

  afterAll(async () => {
    await Promise.all([db, ...extra].map((d) => d?.close()));
    if (driver !== 'postgres' || !baseUrl) return;
    for (const schema of schemas) await adminQuery(baseUrl, `DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await releasePostgres();
  });

  return {
    get db() {
      if (!db) throw new Error('test database not open (use it inside tests or hooks)');
      return db;
    },
    get url() {
      return url;
    },
    async blank() {
      if (driver === 'pglite') {
        const fresh = await openBlankPglite();
        extra.push(fresh);
        return { db: fresh, url: null };
      }
      const freshUrl = await newSchema();
      // openPostgres, not createDb: the caller decides when (and how concurrently) to migrate.
      const fresh = openPostgres(freshUrl);
      extra.push(fresh);
      return { db: fresh, url: freshUrl };
    },
  };
}
