import { adminQuery, withSearchPath } from '../../support/pg-admin';
import { findPostgresBinDir, startPostgresCluster, type PostgresCluster } from '../../support/postgres-cluster';

export interface BenchPostgres {
  /** A fresh schema of the server (`<prefix>_<name>_<pid>`), as a URL whose search_path names it. */
  schema(name: string): Promise<string>;
  /** Drops the schemas made and stops the cluster if this bench started one. */
  close(): Promise<void>;
}

/**
 * PostgreSQL for a benchmark: TEST_DATABASE_URL, else a throwaway cluster from the machine's binaries, started
 * when the first schema is asked for (a run on the embedded database alone never starts one).
 */
export function benchPostgres(prefix: string): BenchPostgres {
  let cluster: PostgresCluster | null = null;
  let server: Promise<string> | null = null;
  const schemas: string[] = [];
  const url = () =>
    (server ??= (async () => {
      const given = process.env.TEST_DATABASE_URL;
      if (given) return given;
      const bin = findPostgresBinDir();
      if (!bin) throw new Error('PostgreSQL binaries not found: set TEST_DATABASE_URL or BENCH_DATABASES=embedded');
      cluster = await startPostgresCluster(bin);
      return cluster.url;
    })());
  return {
    async schema(name) {
      const base = await url();
      const schema = `${prefix}_${name}_${process.pid}`;
      await adminQuery(base, `CREATE SCHEMA ${schema}`);
      schemas.push(schema);
      return withSearchPath(base, schema);
    },
    async close() {
      const base = server ? await server.catch(() => null) : null;
      if (base) for (const s of schemas) await adminQuery(base, `DROP SCHEMA IF EXISTS ${s} CASCADE`).catch(() => undefined);
      (cluster as PostgresCluster | null)?.stop();
    },
  };
}
