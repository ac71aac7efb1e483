import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { processAlive, readPidFile } from './pid-file';

export const ROOT = resolve(__dirname, '../..');
export const NEXT_BIN = join(ROOT, 'node_modules', '.bin', 'next');

function newestMtime(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry.startsWith('.')) continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

const SOURCES = ['app', 'components', 'lib', 'server', 'public', 'proxy.ts', 'instrumentation.ts', 'next.config.js', 'package.json', 'tsconfig.json'];

/** A Next app to build: its directory and what it is built from (paths relative to the repository). */
export interface NextApp {
  dir: string;
  sources: string[];
}

const PRODUCT: NextApp = { dir: ROOT, sources: SOURCES };

/**
 * The product's build is also the container's: the standalone server (.next/standalone, as the Dockerfile copies
 * it) comes out of the same `next build`, so the tests can run what the image runs without a second build.
 * `next start` serves the same .next: it reads next.config.js without NEXT_OUTPUT, so it sees an ordinary build.
 */
export const STANDALONE_SERVER = join(ROOT, '.next', 'standalone', 'server.js');

/** A build is current when no source the app is built from changed after it. */
export function buildIsCurrent(app: NextApp = PRODUCT): boolean {
  const buildId = join(app.dir, '.next', 'BUILD_ID');
  if (!existsSync(buildId)) return false;
  if (app === PRODUCT && !existsSync(STANDALONE_SERVER)) return false;
  const built = statSync(buildId).mtimeMs;
  return app.sources.every((s) => !existsSync(join(ROOT, s)) || newestMtime(join(ROOT, s)) <= built);
}

const LOCK = join(ROOT, '.next-build.lock');
const LOCK_STALE_MS = 15 * 60_000;

function sleep(ms: number) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * One build at a time across processes (test runs and `npm start` may overlap). A lock whose holder is gone
 * (a killed build) is taken over at once; one that names no holder expires after LOCK_STALE_MS.
 */
export function withBuildLock(fn: () => void, lock: string = LOCK) {
  for (;;) {
    let made = false;
    try {
      mkdirSync(lock);
      made = true;
    } catch {
      // Held by another process: below.
    }
    if (made) {
      try {
        writeFileSync(join(lock, 'pid'), String(process.pid));
      } catch (e) {
        rmSync(lock, { recursive: true, force: true });
        throw e;
      }
      break;
    }
    const held = statSync(lock, { throwIfNoEntry: false });
    const holder = readPidFile(join(lock, 'pid'));
    const stale = held && (holder !== null ? !processAlive(holder) : Date.now() - held.mtimeMs > LOCK_STALE_MS);
    if (stale) rmSync(lock, { recursive: true, force: true });
    else sleep(500);
  }
  try {
    fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * Runs `next build` when the build is missing or stale; throws when the build fails. The product by default;
 * another app (the form benchmark's bare Next app) builds in its own directory, one build at a time all the same.
 */
export function buildIfStale(env: NodeJS.ProcessEnv = process.env, app: NextApp = PRODUCT): void {
  if (buildIsCurrent(app)) return;
  withBuildLock(() => {
    if (buildIsCurrent(app)) return; // another process built it while we waited
    console.log(`Building ${app.dir === ROOT ? 'the app' : app.dir} (next build)…`);
    const built = spawnSync(NEXT_BIN, ['build'], { cwd: app.dir, env: app === PRODUCT ? { ...env, NEXT_OUTPUT: 'standalone' } : env, stdio: 'inherit' });
    if (built.status !== 0) throw new Error(`next build failed with status ${built.status}`);
  });
}

// `npm run build:if-stale`, and `npm start` when the build is stale
if (require.main === module) {
  // A stop reaches `next build` through the process group (the launcher signals the whole group); waiting
  // for it here, rather than dying at once, lets the build lock be removed.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => undefined);
  try {
    buildIfStale();
  } catch (e) {
    console.error((e as Error).message);
    process.exit(1);
  }
}
