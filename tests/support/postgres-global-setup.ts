// Vitest global setup: one throwaway PostgreSQL cluster for the whole run (test files share it, each
// in its own schema), unless TEST_DATABASE_URL names a server already. Add to vitest.config.ts:
//   test: { globalSetup: ['tests/support/postgres-global-setup.ts'], ... }
// A failure to start is handed to the test files rather than thrown, so only the PostgreSQL variants fail.
import type { TestProject } from 'vitest/node';
import { findPostgresBinDir, startPostgresCluster, type PostgresCluster, type ProvidedPostgres } from './postgres';

let cluster: PostgresCluster | null = null;

export async function setup(project: TestProject): Promise<void> {
  let provided: ProvidedPostgres = { url: null, error: null };
  if (process.env.TEST_DATABASE_URL) {
    provided = { url: process.env.TEST_DATABASE_URL, error: null };
  } else {
    const binDir = findPostgresBinDir();
    if (binDir) {
      try {
        cluster = await startPostgresCluster(binDir);
        provided = { url: cluster.url, error: null };
      } catch (err) {
        provided = { url: null, error: err instanceof Error ? err.message : String(err) };
      }
    }
  }
  project.provide('testPostgres', provided);
}

export function teardown(): void {
  cluster?.stop();
  cluster = null;
}
