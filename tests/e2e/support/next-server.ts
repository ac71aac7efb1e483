import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { REPO_ROOT } from './paths';
import { E2E_HOST, getFreePort } from './ports';

interface StartNextServerOptions {
  /**
   * Variables for the app on top of a minimal base environment (PATH, HOME, locale, temp dir,
   * NODE_ENV=production, NEXT_TELEMETRY_DISABLED=1). Nothing else leaks in from the shell
   * that runs the tests, so a developer's PORTAL_API_KEY or DATABASE_URL cannot reach the app.
   */
  env?: Record<string, string>;
  /** How long to wait for the server to answer HTTP. */
  readyTimeoutMs?: number;
  /** Appends everything the server prints to this file (tests read it for leaked secrets). */
  logFile?: string;
  /** App instances behind the port (server/launcher/app-instances.cjs, as `npm start` runs them); default 1. */
  instances?: number;
  /** A fixed port (a restarted instance comes back where its clients expect it); else a free one. */
  port?: number;
  /** The app's directory (its build in `<dir>/.next`); the repository's app by default. */
  dir?: string;
  /** Runs `node server.js` of a standalone output in `dir` (as the container does) instead of `next start`. */
  standalone?: boolean;
}

export interface NextServer {
  /** Origin of the server, e.g. http://127.0.0.1:41234 (no trailing slash). */
  url: string;
  /** Stops the server and everything it spawned; safe to call more than once. */
  stop: () => Promise<void>;
  /** The process started (with several instances, the cluster's primary). */
  pid: number | undefined;
}

/** Variables passed through from the runner's environment when set (not secrets, not config). */
const PASSTHROUGH_ENV = ['PATH', 'HOME', 'TMPDIR', 'TMP', 'TEMP', 'LANG', 'LC_ALL', 'TZ', 'SystemRoot', 'COMSPEC'];
const PORT_ATTEMPTS = 3;
const STOP_GRACE_MS = 5_000;
const LOG_TAIL_LINES = 60;

/**
 * Starts the production Next.js server (`next start -H 127.0.0.1 -p <free port>`) from the
 * repository's own `next` package. Needs a prior `next build` (the `test:e2e` script does it).
 */
export async function startNextServer(options: StartNextServerOptions = {}): Promise<NextServer> {
  const buildId = path.join(options.dir ?? REPO_ROOT, '.next', 'BUILD_ID');
  if (!fs.existsSync(buildId)) {
    throw new Error(`No production build at ${path.dirname(buildId)}: run \`npx next build\` first (\`npm run test:e2e\` does).`);
  }
  if (options.port !== undefined) return startOnPort(options.port, options);
  let lastError: unknown;
  for (let attempt = 1; attempt <= PORT_ATTEMPTS; attempt++) {
    const port = await getFreePort();
    try {
      return await startOnPort(port, options);
    } catch (error) {
      lastError = error;
      // Another process took the port between the probe and `next start`: try a new one.
      if (!(error instanceof PortInUseError)) throw error;
    }
  }
  throw lastError;
}

class PortInUseError extends Error {}

async function startOnPort(port: number, options: StartNextServerOptions): Promise<NextServer> {
  const url = `http://${E2E_HOST}:${port}`;
  // The repository's own `next` (what node_modules/.bin/next points to), run by this Node binary.
  const nextBin = createRequire(path.join(REPO_ROOT, 'package.json')).resolve('next/dist/bin/next');
  const instances = options.instances ?? 1;
  const [entry, args] = options.standalone
    ? [path.join(options.dir ?? REPO_ROOT, 'server.js'), []]
    : instances > 1
      ? [path.join(REPO_ROOT, 'server', 'launcher', 'app-instances.cjs'), ['-H', E2E_HOST, '-p', String(port)]]
      : [nextBin, ['start', '-H', E2E_HOST, '-p', String(port)]];
  const child = spawn(process.execPath, [entry, ...args], {
    cwd: options.dir ?? REPO_ROOT,
    // HOST and PORT as `npm start` passes them: the app names its own address in the links it hands out.
    // The standalone server takes its address from HOSTNAME and PORT alone.
    env: { ...buildEnv({ HOST: E2E_HOST, PORT: String(port), ...(options.standalone ? { HOSTNAME: E2E_HOST } : {}), ...options.env }), ...(instances > 1 ? { APP_INSTANCES: String(instances) } : {}) },
    // Own process group, so stop() can signal the server and anything it forks.
    detached: process.platform !== 'win32',
    stdio: ['ignore', 'pipe', 'pipe'],
  });

  const log: string[] = [];
  const logStream = options.logFile ? fs.createWriteStream(options.logFile, { flags: 'a' }) : null;
  const record = (chunk: Buffer) => {
    logStream?.write(chunk);
    log.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    if (log.length > LOG_TAIL_LINES) log.splice(0, log.length - LOG_TAIL_LINES);
    if (process.env.E2E_SERVER_LOG) process.stderr.write(`[next] ${chunk.toString('utf8')}`);
  };
  child.stdout?.on('data', record);
  child.stderr?.on('data', record);

  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
    // A process that could not be spawned emits 'error' (and maybe no 'exit').
    child.once('error', (error) => {
      log.push(`spawn error: ${error.message}`);
      resolve();
    });
  });
  const outputClosed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  liveServers.add(child);
  guardAgainstRunnerDeath();

  let stopped: Promise<void> | undefined;
  const stop = () => {
    stopped ??= (async () => {
      liveServers.delete(child);
      signalGroup(child, 'SIGTERM');
      await Promise.race([exited, delay(STOP_GRACE_MS)]);
      // Whatever is left of the group (a slow leader, or anything it forked) goes now.
      signalGroup(child, 'SIGKILL');
      await exited;
    })();
    return stopped;
  };

  try {
    await waitUntilAnswering(url, child, exited, options.readyTimeoutMs ?? 60_000);
  } catch (error) {
    await stop();
    // The output may still be in flight when the process exits; give it a moment to arrive.
    await Promise.race([outputClosed, delay(1_000)]);
    const tail = log.join('\n');
    if (/EADDRINUSE/.test(tail)) throw new PortInUseError(`port ${port} was taken`);
    throw new Error(`${(error as Error).message}\n--- next start output (last ${LOG_TAIL_LINES} lines) ---\n${tail}`);
  }
  return { url, stop, pid: child.pid };
}

function buildEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: Record<string, string> = {};
  for (const name of PASSTHROUGH_ENV) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return { ...env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1', ...extra };
}

async function waitUntilAnswering(url: string, child: ChildProcess, exited: Promise<void>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  let childExited = false;
  void exited.then(() => {
    childExited = true;
  });
  while (Date.now() < deadline) {
    if (childExited) {
      throw new Error(`next start exited (code ${child.exitCode}, signal ${child.signalCode}) before answering at ${url}`);
    }
    try {
      // Any HTTP answer means the server is up; whether the app is healthy is for the tests to say.
      const response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(2_000) });
      await response.body?.cancel();
      return;
    } catch {
      // Not listening yet: wait for the next poll, or for the process to exit, whichever comes first.
      await Promise.race([delay(100), exited]);
    }
  }
  throw new Error(`next start did not answer at ${url} within ${timeoutMs} ms`);
}

/** Servers started and not yet stopped, killed if the runner goes away without its teardown. */
const liveServers = new Set<ChildProcess>();
let guardInstalled = false;

function guardAgainstRunnerDeath() {
  if (guardInstalled) return;
  guardInstalled = true;
  const killAll = () => {
    for (const child of liveServers) signalGroup(child, 'SIGKILL');
    liveServers.clear();
  };
  process.on('exit', killAll);
  // Playwright handles SIGINT itself (it runs the teardown); SIGTERM and SIGHUP would otherwise end
  // the runner at once and orphan the servers, which live in their own process groups.
  for (const signal of ['SIGTERM', 'SIGHUP'] as const) {
    const onSignal = () => {
      killAll();
      if (process.listenerCount(signal) === 1) {
        // Nobody else handles it: let the signal end the runner as it would have without us.
        process.removeListener(signal, onSignal);
        process.kill(process.pid, signal);
      }
    };
    process.on(signal, onSignal);
  }
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals) {
  if (child.pid === undefined) return;
  try {
    if (process.platform === 'win32') child.kill(signal);
    else process.kill(-child.pid, signal);
  } catch {
    // The whole group is already gone (ESRCH).
  }
}

function delay(ms: number) {
  return new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
}
