// Manages staff and reviewer accounts from a terminal, against the database the app uses
// (DATABASE_URL, else the embedded database in DATA_DIR, default ./.data):
//
//   tsx server/cli/users.ts add --email x@y.z --name "X Y" --role staff|reviewer [--password …]
//   tsx server/cli/users.ts set-password --email x@y.z [--password …]
//   tsx server/cli/users.ts disable --email x@y.z      (also ends the user's sessions)
//   tsx server/cli/users.ts enable --email x@y.z
//   tsx server/cli/users.ts list
//   tsx server/cli/users.ts seed-demo                  (the demo accounts, when missing)
//
// The password comes from --password, else the PASSWORD environment variable, else a hidden prompt.
// With the embedded database the app must be stopped first: only one process may open it.
//
// The server modules import 'server-only', which throws unless Node resolves with the `react-server`
// condition (as Next does for server code). So this entry point imports them dynamically, after
// making sure that condition is on, re-running itself with it when it is not.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const USAGE = `usage: users.ts <add|set-password|disable|enable|list|seed-demo> [--email E] [--name N] [--role staff|reviewer] [--password P]\n`;

class UsageError extends Error {}

async function hasServerCondition(): Promise<boolean> {
  try {
    await import('server-only');
    return true;
  } catch {
    return false;
  }
}

function rerunWithServerCondition(): never {
  const args = [...process.execArgv, '--conditions=react-server', ...process.argv.slice(1)];
  const run = spawnSync(process.execPath, args, { stdio: 'inherit' });
  process.exit(run.status ?? 1);
}

function out(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** Reads a line without echoing it on a terminal; reads the first line of a pipe otherwise. */
async function readPassword(prompt: string): Promise<string> {
  const stdin = process.stdin;
  if (!stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of stdin) chunks.push(chunk as Buffer);
    return (Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0] ?? '').trim();
  }
  process.stderr.write(prompt);
  stdin.setRawMode(true);
  stdin.resume();
  stdin.setEncoding('utf8');
  return new Promise((resolve, reject) => {
    let value = '';
    const onData = (text: string) => {
      for (const ch of text) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') {
          finish();
          resolve(value);
          return;
        }
        if (ch === '\u0003') {
          finish();
          reject(new UsageError('cancelled'));
          return;
        }
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else value += ch;
      }
    };
    const finish = () => {
      stdin.removeListener('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write('\n');
    };
    stdin.on('data', onData);
  });
}

async function passwordFrom(given: string | undefined, confirm: boolean): Promise<string> {
  if (given) return given;
  if (process.env.PASSWORD) return process.env.PASSWORD;
  const first = await readPassword('Password: ');
  if (confirm && process.stdin.isTTY && (await readPassword('Repeat password: ')) !== first) throw new UsageError('passwords do not match');
  return first;
}

function required(value: string | undefined, flag: string): string {
  if (!value) throw new UsageError(`--${flag} is required`);
  return value;
}

function parseCommandLine() {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        email: { type: 'string' },
        name: { type: 'string' },
        role: { type: 'string' },
        password: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
}

async function main(): Promise<number> {
  const { positionals, values } = parseCommandLine();
  const command = positionals[0];
  if (values.help || !command) {
    process.stdout.write(USAGE);
    return values.help ? 0 : 2;
  }

  const [{ createDb }, users] = await Promise.all([import('../db/create-db'), import('../auth/users')]);
  // The same settings the app reads (server/env); read directly so this tool needs no SESSION_SECRET.
  const db = await createDb({ url: process.env.DATABASE_URL || null, dataDir: process.env.DATA_DIR || join(process.cwd(), '.data') });
  try {
    const show = (u: { email: string; name: string; role: string; disabledAt: Date | null }) =>
      `${u.email}\t${u.role}\t${u.disabledAt ? `disabled ${u.disabledAt.toISOString()}` : 'active'}\t${u.name}`;
    switch (command) {
      case 'add': {
        const role = required(values.role, 'role');
        if (role !== 'staff' && role !== 'reviewer') throw new UsageError('--role must be staff or reviewer');
        const input = { email: required(values.email, 'email'), name: required(values.name, 'name'), role } as const;
        const user = await users.createUser(db, { ...input, password: await passwordFrom(values.password, true) });
        out(`added ${show(user)}`);
        return 0;
      }
      case 'set-password': {
        const email = required(values.email, 'email');
        const user = await users.setUserPassword(db, email, await passwordFrom(values.password, true));
        if (!user) throw new UsageError(`no user ${email}`);
        out(`password changed, sessions ended: ${user.email}`);
        return 0;
      }
      case 'disable':
      case 'enable': {
        const email = required(values.email, 'email');
        const user = command === 'disable' ? await users.disableUser(db, email) : await users.enableUser(db, email);
        if (!user) throw new UsageError(`no user ${email}`);
        out(show(user));
        return 0;
      }
      case 'list': {
        for (const user of await users.listUsers(db)) out(show(user));
        return 0;
      }
      case 'seed-demo': {
        const created = await users.ensureDemoUsers(db);
        out(created.length ? created.map((u) => `added ${show(u)}`).join('\n') : 'demo users already present');
        return 0;
      }
      default:
        throw new UsageError(`unknown command ${command}`);
    }
  } finally {
    await db.close();
  }
}

async function run(): Promise<void> {
  if (!(await hasServerCondition())) rerunWithServerCondition();
  try {
    process.exitCode = await main();
  } catch (err) {
    const known = err instanceof UsageError || (err instanceof Error && /^(InvalidUserError|UserExistsError|EmbeddedDbInUseError)$/.test(err.name));
    process.stderr.write(`${known ? (err as Error).message : err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    if (err instanceof UsageError) process.stderr.write(USAGE);
    process.exitCode = err instanceof UsageError ? 2 : 1;
  }
}

void run();
