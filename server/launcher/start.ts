// `npm start` – the whole product on embedded defaults: the Portal sandbox as a child process of its own
// (unless PORTAL_BASE_URL names a real Portal), a production build of the app (rebuilt when sources changed),
// and the app server. `npm run dev` does the same with `next dev`.
//
// Stopping: SIGTERM or SIGINT, at any point of the start, is passed on to every child (to a build's whole
// process group), and the launcher exits once they all have, so no port stays held. npm hands a signal only
// to the shell that runs the script, and that shell dies without passing it on: so the script runs this file
// under `node --import tsx` (no tsx process in between), and a launcher whose parent goes away stops the same way.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { DEMO_FULL_KEY, DEMO_KEYS } from '../../lib/portal/demo-keys';
import { DEMO_ACCOUNTS } from '../auth/demo-users';
import { newWebhookSecret } from '../webhooks/verify';
import { DEFAULT_DRAIN_GRACE_MS } from '../env/defaults';
import { NEXT_BIN, ROOT, buildIsCurrent } from './build';
import { appInstances } from './instances';
import { startLocalSmtp, type LocalSmtp } from './local-smtp';
import { startSandboxProcess, type SandboxProcess } from './sandbox-process';

const dev = process.argv.includes('--dev');
/** How often the launcher checks that whoever started it is still there. */
const PARENT_CHECK_MS = 250;
/**
 * How long a stopped child may take before it is killed: the app's drain grace (it exits by itself a second
 * after it) and a margin. Only a child stuck past its own deadline meets this, and a port must not stay held.
 */
const KILL_AFTER_MS = (Number(process.env.DRAIN_GRACE_MS) || DEFAULT_DRAIN_GRACE_MS) + 5_000;

/** The children running now; a stop signals each and waits for all of them. */
const children = new Set<ChildProcess>();
/** Children started as a process group of their own (a build and its workers). */
const groups = new WeakSet<ChildProcess>();
/** The signal the launcher was asked to stop with, once it was. */
let stopping: NodeJS.Signals | null = null;
const sandboxStart = new AbortController();
let sandbox: SandboxProcess | null = null;
let localSmtp: LocalSmtp | null = null;

const running = (c: ChildProcess) => c.exitCode === null && c.signalCode === null;

/** Sends a signal to a child; a child started as a process group of its own (a build) gets it with all of its own children. */
function signal(child: ChildProcess, sig: NodeJS.Signals) {
  if (!running(child)) return;
  try {
    if (child.pid !== undefined && groups.has(child)) process.kill(-child.pid, sig);
    else child.kill(sig);
  } catch {
    // Gone between the check and the signal.
  }
}

/** A child the launcher waits for when it stops. */
function track(command: string, args: readonly string[], options: SpawnOptions & { group?: boolean }): ChildProcess {
  const { group = false, ...spawnOptions } = options;
  // A process group of its own (not on Windows, which has none): a stop reaches the build's workers too.
  const leader = group && process.platform !== 'win32';
  const child = spawn(command, args, { ...spawnOptions, detached: leader });
  if (leader) groups.add(child);
  children.add(child);
  child.once('exit', () => {
    children.delete(child);
    finishIfStopped();
  });
  if (stopping) signal(child, stopping);
  return child;
}

/** Resolves with a tracked child's exit code (a signal counts as a failure). */
const exitOf = (child: ChildProcess) => new Promise<number>((resolve) => child.once('exit', (code) => resolve(code ?? 1)));

let exiting = false;
/** Once stopping, the launcher exits as soon as no child is left. */
function finishIfStopped() {
  if (!stopping || exiting || children.size > 0) return;
  exiting = true;
  void (sandbox?.stop() ?? Promise.resolve()).then(() => process.exit(0));
}

function stop(sig: NodeJS.Signals) {
  if (stopping) return;
  stopping = sig;
  sandboxStart.abort();
  // The sandbox stops last (finishIfStopped): a draining app still finishes the Portal calls it has in flight.
  for (const child of children) signal(child, sig);
  killStragglersLater();
  finishIfStopped();
}

function killStragglersLater() {
  setTimeout(() => {
    const left = [...children].filter(running);
    if (left.length === 0) return;
    console.error(`Still running ${KILL_AFTER_MS / 1000} s after the stop (pid ${left.map((c) => c.pid).join(', ')}): killing.`);
    for (const child of left) signal(child, 'SIGKILL');
  }, KILL_AFTER_MS).unref();
}

/** Ends the launcher with its children, for a reason other than a signal (a failed step). */
async function fail(code: number): Promise<never> {
  stopping ??= 'SIGTERM';
  for (const child of children) signal(child, 'SIGTERM');
  killStragglersLater();
  await Promise.all([...children].map(exitOf));
  await sandbox?.stop();
  process.exit(code);
}

async function main() {
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) stop('SIGTERM');
  }, PARENT_CHECK_MS).unref();

  const env: NodeJS.ProcessEnv = { ...process.env };
  const port = env.PORT ?? '3000';
  const host = env.HOST ?? '127.0.0.1';
  // The app's links name the address it listens on unless APP_ORIGIN says otherwise (server/http/public-origin.ts).
  env.PORT = port;
  env.HOST = host;
  let instances: number;
  try {
    instances = appInstances(env, dev);
  } catch (e) {
    console.error((e as Error).message);
    process.exit(1);
  }

  if (!env.PORTAL_BASE_URL) {
    // The sandbox posts its events to the app's receiver, signed with a secret both share: the one
    // configured on either side, else a new one for this run. That is what makes pages update live.
    const secret = env.WEBHOOK_SECRET || env.SANDBOX_WEBHOOK_SECRET || newWebhookSecret();
    env.WEBHOOK_SECRET ||= secret;
    env.SANDBOX_WEBHOOK_SECRET ||= secret;
    if (env.WEBHOOK_SECRET !== env.SANDBOX_WEBHOOK_SECRET) {
      console.warn('WEBHOOK_SECRET and SANDBOX_WEBHOOK_SECRET differ: the app will refuse the sandbox’s webhooks.');
    }
    env.SANDBOX_WEBHOOK_URL ||= `http://${loopbackOf(host)}:${port}/api/webhooks/portal`;
    env.SANDBOX_DATA_FILE ??= join(ROOT, '.data', 'sandbox.json');
    try {
      sandbox = await startSandboxProcess(env, sandboxStart.signal);
    } catch (e) {
      // Stopped while it started: it has exited already.
      if (stopping) return finishIfStopped();
      console.error((e as Error).message);
      process.exit(1);
    }
    if (stopping) return finishIfStopped();
    env.PORTAL_BASE_URL = sandbox.baseUrl;
    env.PORTAL_API_KEY ??= DEMO_FULL_KEY.token;
  }

  // Without SMTP_URL mail goes to a real SMTP server of this launcher's own, which keeps every message as a file.
  if (!env.SMTP_URL) {
    try {
      localSmtp = await startLocalSmtp(resolve(ROOT, env.DATA_DIR ?? '.data'), loopbackOf(host).replace(/^\[|\]$/g, ''));
    } catch (e) {
      console.error(`The local SMTP server did not start: ${(e as Error).message}`);
      return fail(1);
    }
    env.SMTP_URL = localSmtp.url;
    // Demos see a temporary refusal retried within seconds, not minutes.
    env.MAIL_RETRY_SECONDS ??= '5';
  }

  // The demo sign-ins, created when missing (before the app opens the database: the embedded one is single-process).
  const seeded = await exitOf(track(process.execPath, [...process.execArgv, join(ROOT, 'server', 'cli', 'users.ts'), 'seed-demo'], { cwd: ROOT, env, stdio: 'inherit' }));
  if (stopping) return;
  if (seeded !== 0) return fail(seeded);

  if (!dev && !buildIsCurrent()) {
    const built = await exitOf(track(process.execPath, [...process.execArgv, join(ROOT, 'server', 'launcher', 'build.ts')], { cwd: ROOT, env, stdio: 'inherit', group: true }));
    if (stopping) return;
    if (built !== 0) return fail(built);
  }

  // Several instances share the port through Node's cluster (app-instances.cjs); one is plain `next start`.
  env.APP_INSTANCES = String(instances);
  const [command, args] =
    instances > 1 ? [process.execPath, [join(ROOT, 'server', 'launcher', 'app-instances.cjs')]] : [NEXT_BIN, [dev ? 'dev' : 'start']];
  const app = track(command, [...args, '-H', host, '-p', port], { cwd: ROOT, env, stdio: ['inherit', 'pipe', 'inherit'] });
  let announced = false;
  // `npm run dev` shows the JSON log lines readably (pino-pretty, a development dependency); anything else
  // the app prints passes through it unchanged. `npm start` writes the lines as they are, for a collector.
  const out = dev ? await prettyPrinter() : process.stdout;
  app.stdout!.on('data', (chunk: Buffer) => {
    out.write(chunk);
    if (announced || !/ready|started|Local:/i.test(chunk.toString())) return;
    announced = true;
    const lines = [
      '',
      `  Intake is running at http://${host === '0.0.0.0' ? 'localhost' : host}:${port}${instances > 1 ? ` (${instances} app instances)` : ''}`,
      sandbox
        ? `  Portal sandbox: ${sandbox.baseUrl} (${sandbox.dataFile ? `state kept in ${shortPath(sandbox.dataFile)}; delete it to start from the seed` : 'state kept in memory'})`
        : `  Portal: ${env.PORTAL_BASE_URL}`,
    ];
    if (localSmtp) lines.push(`  Mail: a local SMTP server keeps every message in ${shortPath(localSmtp.dir)}; staff read them on the Outbox page (/outbox)`);
    lines.push('  Sign in as:');
    for (const a of DEMO_ACCOUNTS) lines.push(`    ${a.role.padEnd(9)} ${a.email.padEnd(24)} password: ${a.password}`);
    if (sandbox) {
      lines.push('  Sandbox API keys:');
      for (const k of DEMO_KEYS) lines.push(`    ${k.label.padEnd(38)} ${k.token}`);
    }
    console.log(`${lines.join('\n')}\n`);
  });

  sandbox?.onUnexpectedExit((code) => {
    console.error(`The Portal sandbox stopped (exit code ${code}); stopping the app.`);
    void fail(1);
  });
  const code = await exitOf(app);
  // Stopped on request: finishIfStopped exits once everything has.
  if (!stopping) await fail(code);
}

async function prettyPrinter(): Promise<NodeJS.WritableStream> {
  const { default: pretty } = await import('pino-pretty');
  return pretty({ colorize: process.stdout.isTTY, translateTime: 'SYS:HH:MM:ss.l', messageKey: 'msg', timestampKey: 'ts', destination: 1 });
}

/** A path under the project as the README writes it (.data/sandbox.json), any other in full. */
function shortPath(path: string): string {
  const r = relative(ROOT, path);
  return r.startsWith('..') || isAbsolute(r) ? path : r;
}

/** An address the sandbox can reach the app on: a wildcard listener is reached on loopback. */
function loopbackOf(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

void main();
