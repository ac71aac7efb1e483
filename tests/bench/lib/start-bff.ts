import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startNextServer, type NextServer } from '../../e2e/support/next-server';
import { adminQuery, withSearchPath } from '../../support/pg-admin';
import { signIn } from '../../support/http-sign-in';

export interface BenchBff {
  url: string;
  /** The signed-in staff member's Cookie header. */
  cookie: string;
  /** What backs the BFF's own state, for the report. */
  database: 'embedded (PGlite)' | 'PostgreSQL';
  logFile: string;
  /** The server's process group (its launcher leads it). */
  pid: number | undefined;
  /** Where the embedded database lives (its DATA_DIR); null on PostgreSQL. */
  dataDir: string | null;
  stop(): Promise<void>;
}

export interface StartBffOptions {
  portalBaseUrl: string;
  portalApiKey: string;
  /** A PostgreSQL server for the BFF's database (a schema of its own); the embedded database otherwise. */
  postgresUrl?: string | null;
  /** Extra variables for the Next server (LOG_LEVEL, NODE_OPTIONS for --cpu-prof, ...). */
  env?: Record<string, string>;
  /** App instances behind the one port (PostgreSQL only); default 1. */
  instances?: number;
}

const ROOT = resolve(__dirname, '../../..');

/** The database the BFF will use, empty: a temp DATA_DIR, or a fresh schema of the PostgreSQL server. */
interface BenchDatabase {
  env: Record<string, string>;
  kind: BenchBff['database'];
  drop(): Promise<void>;
}

async function benchDatabase(postgresUrl: string | null | undefined, dir: string): Promise<BenchDatabase> {
  if (!postgresUrl) return { env: { DATA_DIR: join(dir, 'data') }, kind: 'embedded (PGlite)', drop: async () => undefined };
  const schema = `bench_${process.pid}_${randomBytes(3).toString('hex')}`;
  await adminQuery(postgresUrl, `CREATE SCHEMA ${schema}`);
  return {
    env: { DATABASE_URL: withSearchPath(postgresUrl, schema) },
    kind: 'PostgreSQL',
    drop: () => adminQuery(postgresUrl, `DROP SCHEMA IF EXISTS ${schema} CASCADE`),
  };
}

/**
 * Adds the staff account with the users CLI in a child process, before the server starts: the embedded
 * database admits one process at a time, so it cannot be written from here while Next holds it.
 */
function addStaffUser(dbEnv: Record<string, string>, email: string, password: string) {
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'server/cli/users.ts', 'add', '--email', email, '--name', 'Bench Staff', '--role', 'staff', '--password', password],
    { cwd: ROOT, env: { ...process.env, DATABASE_URL: '', DATA_DIR: '', ...dbEnv }, encoding: 'utf8' },
  );
  if (run.status !== 0) throw new Error(`users add failed (${run.status}): ${run.stderr}${run.stdout}`);
}


/**
 * The production BFF (`next start`, built beforehand) in its own process, on its own empty database,
 * pointed at the given Portal, with one staff member signed in over HTTP.
 */
export async function startBff(o: StartBffOptions): Promise<BenchBff> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-bff-'));
  const db = await benchDatabase(o.postgresUrl, dir);
  let server: NextServer | null = null;
  const stop = async () => {
    await server?.stop();
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const email = `bench-${randomBytes(4).toString('hex')}@example.test`;
    const password = `pw-${randomBytes(12).toString('hex')}`;
    addStaffUser(db.env, email, password);
    const logFile = join(dir, 'next.log');
    server = await startNextServer({
      logFile,
      env: {
        PORTAL_BASE_URL: o.portalBaseUrl,
        PORTAL_API_KEY: o.portalApiKey,
        SESSION_SECRET: randomBytes(32).toString('hex'),
        ...db.env,
        ...o.env,
      },
      instances: o.instances,
    });
    const cookie = await signIn(server.url, email, password);
    return { url: server.url, cookie, database: db.kind, logFile, pid: server.pid, dataDir: db.env.DATA_DIR ?? null, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
