// A throwaway PostgreSQL cluster from the binaries on the machine, for the tests (through postgres.ts) and
// the benchmarks (which run outside Vitest, so this module imports nothing of it).
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';


export interface PostgresCluster {
  url: string;
  stop(): void;
}

function versionOf(binDir: string): number {
  const m = /postgresql\/(\d+)\/bin/.exec(binDir);
  return m ? Number(m[1]) : 0;
}

/** The directory holding initdb and pg_ctl: PATH first, then Debian's versioned dirs (newest), then /usr/local/bin. */
export function findPostgresBinDir(): string | null {
  const has = (dir: string) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'));
  const fromPath = (process.env.PATH ?? '').split(':').filter(Boolean);
  const debian = existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql')
        .map((v) => `/usr/lib/postgresql/${v}/bin`)
        .sort((a, b) => versionOf(b) - versionOf(a))
    : [];
  return [...fromPath, ...debian, '/usr/local/bin'].find(has) ?? null;
}

function uidOf(user: string): number | null {
  const r = spawnSync('id', ['-u', user], { encoding: 'utf8' });
  return r.status === 0 ? Number(r.stdout.trim()) : null;
}

/** initdb refuses to run as root: as root, run the server tools as `postgres` (Debian's) or `nobody`. */
function serverUser(): { name: string; uid: number } | null {
  if (process.getuid?.() !== 0) return null;
  for (const name of ['postgres', 'nobody']) {
    const uid = uidOf(name);
    if (uid !== null) return { name, uid };
  }
  throw new Error('running as root and neither a postgres nor a nobody user exists to run PostgreSQL');
}

function runAs(user: { name: string } | null, command: string, args: string[]): { ok: boolean; output: string } {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const [cmd, cmdArgs] = !user
    ? [command, args]
    : existsSync('/usr/sbin/runuser') || existsSync('/sbin/runuser')
      ? ['runuser', ['-u', user.name, '--', command, ...args]]
      : ['su', ['-s', '/bin/sh', user.name, '-c', [command, ...args].map(quote).join(' ')]];
  const env = { ...process.env, PATH: `${process.env.PATH ?? ''}:/usr/sbin:/sbin` };
  const r = spawnSync(cmd, cmdArgs, { encoding: 'utf8', env, timeout: 120_000 });
  return { ok: r.status === 0, output: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}` };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * initdb + pg_ctl start in a temporary directory, on a free loopback port, with a random password and
 * no Unix socket; durability switched off since the data is thrown away. stop() removes everything.
 */
export async function startPostgresCluster(binDir: string): Promise<PostgresCluster> {
  const user = serverUser();
  const root = mkdtempSync(join(tmpdir(), 'intake-bff-pg-'));
  const data = join(root, 'data');
  const log = join(root, 'postgres.log');
  const password = randomBytes(18).toString('base64url');
  const pwfile = join(root, 'pwfile');
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (user) {
    chownSync(root, user.uid, -1);
    chownSync(pwfile, user.uid, -1);
  }
  const cleanup = () => rmSync(root, { recursive: true, force: true });

  const init = runAs(user, join(binDir, 'initdb'), [
    '-D', data, '-U', 'postgres', '--auth=scram-sha-256', `--pwfile=${pwfile}`, '-E', 'UTF8', '--locale=C', '--no-sync',
  ]);
  if (!init.ok) {
    cleanup();
    throw new Error(`initdb failed:\n${init.output}`);
  }
  const port = await freePort();
  appendFileSync(
    join(data, 'postgresql.conf'),
    [
      `port = ${port}`,
      `listen_addresses = '127.0.0.1'`,
      `unix_socket_directories = ''`,
      'fsync = off',
      'synchronous_commit = off',
      'full_page_writes = off',
      'max_connections = 200',
      '',
    ].join('\n'),
  );
  const pgCtl = join(binDir, 'pg_ctl');
  const start = runAs(user, pgCtl, ['-D', data, '-l', log, '-w', '-t', '60', 'start']);
  if (!start.ok) {
    const tail = existsSync(log) ? readFileSync(log, 'utf8').slice(-2000) : '';
    cleanup();
    throw new Error(`pg_ctl start failed:\n${start.output}\n${tail}`);
  }
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    process.removeListener('exit', stop);
    runAs(user, pgCtl, ['-D', data, '-m', 'immediate', '-w', 'stop']);
    cleanup();
  };
  // A worker that dies without running afterAll must not leave a server behind.
  process.on('exit', stop);
  return { url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`, stop };
}

