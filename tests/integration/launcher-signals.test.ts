import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { getFreePort } from '../e2e/support/ports';
import { poller } from '../support/poller';
import { alive } from '../support/processes';

/*
 * `npm start` stopped the way a process manager or `kill` stops it: the signal goes to the process that was
 * started (npm) or to the launcher itself, never to the whole group. The app and the sandbox must stop with
 * it: every process it started is gone and both ports are free again.
 */

const ROOT = join(__dirname, '..', '..');
const until = poller({ timeoutMs: 60_000, everyMs: 200 });

/** Every process below `pid` (children, their children…). */
function descendantsOf(pid: number): number[] {
  const table = execFileSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
  const found: number[] = [];
  const walk = (parent: number) => {
    for (const [child, ppid] of table) {
      if (ppid === parent && !found.includes(child)) {
        found.push(child);
        walk(child);
      }
    }
  };
  walk(pid);
  return found;
}

const commandOf = (pid: number) => {
  try {
    return execFileSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
};

/** Whether something listens on the port (a connection is accepted). */
const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

interface Started {
  npm: ChildProcess;
  appPort: number;
  sandboxPort: number;
  output: () => string;
}

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

/** `npm start` on free ports with its own data directory, as someone would run it, until it says it is running. */
async function npmStart(): Promise<Started> {
  const [appPort, sandboxPort] = [await getFreePort(), await getFreePort()];
  const dataDir = mkdtempSync(join(tmpdir(), 'launcher-signals-'));
  const env: NodeJS.ProcessEnv = {
    NODE_ENV: 'production',
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    LANG: process.env.LANG,
    PORT: String(appPort),
    HOST: '127.0.0.1',
    SANDBOX_PORT: String(sandboxPort),
    DATA_DIR: dataDir,
    SANDBOX_DATA_FILE: join(dataDir, 'sandbox.json'),
    WORKSPACE_RECONCILE_MINUTES: '0',
    LOG_LEVEL: 'warn',
    NEXT_TELEMETRY_DISABLED: '1',
  };
  // Under `npm test` the npm that runs the tests is named in npm_execpath; otherwise the one on PATH.
  const npmCli = process.env.npm_execpath;
  const npm = npmCli ? spawn(process.execPath, [npmCli, 'start'], { cwd: ROOT, env }) : spawn('npm', ['start'], { cwd: ROOT, env });
  let text = '';
  npm.stdout!.on('data', (c: Buffer) => (text += c.toString()));
  npm.stderr!.on('data', (c: Buffer) => (text += c.toString()));
  const pid = npm.pid!;
  // Whatever the test finds, nothing it started outlives it.
  let known: number[] = [];
  const remember = setInterval(() => (known = [...new Set([...known, ...descendantsOf(pid)])]), 500);
  cleanups.push(() => {
    clearInterval(remember);
    for (const p of [pid, ...known]) if (alive(p)) process.kill(p, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });
  await until(async () => text, (t) => t.includes(`Intake is running at http://127.0.0.1:${appPort}`) || npm.exitCode !== null, 'npm start to say it is running', 300_000);
  expect(npm.exitCode, text).toBeNull();
  expect(await listening(appPort)).toBe(true);
  expect(await listening(sandboxPort)).toBe(true);
  return { npm, appPort, sandboxPort, output: () => text };
}

/** After the signal: every process npm started has exited and both ports are free. */
async function expectAllStopped(started: Started, processes: number[]) {
  expect(processes.length, 'npm start ran the launcher, the sandbox and the app').toBeGreaterThanOrEqual(3);
  await until(
    async () => ({ running: processes.filter(alive).map((p) => `${p} ${commandOf(p)}`), app: await listening(started.appPort), sandbox: await listening(started.sandboxPort) }),
    (s) => s.running.length === 0 && !s.app && !s.sandbox,
    'every process to exit and both ports to be free',
  );
  // The sandbox stops after the app has drained, as part of the stop, not as a failure the launcher reports.
  expect(started.output()).not.toContain('The Portal sandbox stopped');
}

describe('npm start stops with everything it started', () => {
  it('SIGTERM to npm (a process manager, `kill <pid>`): the app and the sandbox stop, the ports are free', async () => {
    const started = await npmStart();
    const processes = descendantsOf(started.npm.pid!);
    const npmExited = new Promise((resolve) => started.npm.once('exit', resolve));
    process.kill(started.npm.pid!, 'SIGTERM');
    await npmExited;
    await expectAllStopped(started, processes);
  }, 420_000);

  it('SIGINT to the launcher itself: it passes it on and exits once its children have', async () => {
    const started = await npmStart();
    const processes = descendantsOf(started.npm.pid!);
    const launcher = processes.find((p) => /server\/launcher\/start\.ts/.test(commandOf(p)) && !/\bsh -c\b/.test(commandOf(p)) && !/\.bin\/tsx /.test(commandOf(p)));
    expect(launcher, processes.map((p) => `${p} ${commandOf(p)}`).join('\n')).toBeDefined();
    process.kill(launcher!, 'SIGINT');
    await expectAllStopped(started, processes);
  }, 420_000);
});
