import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STANDALONE_SERVER } from '@/server/launcher/build';
import { REPO_ROOT } from '../e2e/support/paths';
import { startNextServer, type NextServer } from '../e2e/support/next-server';
import { poller } from '../support/poller';
import { bffStack } from './support/bff';

/*
 * What the container runs, without a container runtime: the standalone server of the build (npm run
 * build:if-stale emits it with the ordinary one), put together in an empty directory by the Dockerfile's own
 * COPY lines of its `app` stage, then `node server.js` against the test stack's database and Portal. It must
 * become ready and serve a page with its static files.
 */

const until = poller({ timeoutMs: 90_000, everyMs: 250 });
const WORKDIR = '/app';

/** The `app` stage's copies out of the build (`/src/…` is the repository, node_modules the installed ones), as [from, to]. */
function dockerfileCopies(): Array<[string, string]> {
  const stage = /^FROM \S+ AS app\n([\s\S]*?)(?=^FROM )/m.exec(readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8'))?.[1];
  if (!stage) throw new Error('the Dockerfile has no `app` stage');
  const copies = [...stage.matchAll(/^COPY --from=(?:build|prod-deps)(?: --chown=\S+)? \/src\/(\S+) (\S+)$/gm)].map(([, from, to]): [string, string] => [from!, to!]);
  expect(copies.length, 'COPY lines of the app stage').toBeGreaterThanOrEqual(2);
  return copies;
}

let dir = '';
let server: NextServer;

beforeAll(async () => {
  if (!existsSync(STANDALONE_SERVER)) throw new Error('No standalone server in .next/standalone: run `npm run build:if-stale`.');
  dir = mkdtempSync(join(tmpdir(), 'bff-standalone-'));
  for (const [from, to] of dockerfileCopies()) {
    const target = posix.isAbsolute(to) ? posix.relative(WORKDIR, to) : to;
    cpSync(join(REPO_ROOT, from.replace(/\/$/, '')), join(dir, target), { recursive: true });
  }
  server = await startNextServer({ dir, standalone: true, env: { ...bffStack().appEnv, DATA_DIR: join(dir, '.data') }, readyTimeoutMs: 90_000 });
}, 180_000);

afterAll(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the standalone server as the container runs it', () => {
  it('holds no sources or tests, becomes ready and serves a page with its static files', async () => {
    for (const absent of ['app', 'server', 'tests', 'lib', 'package-lock.json']) expect(existsSync(join(dir, absent)), absent).toBe(false);

    const ready = await until(
      async () => {
        const r = await fetch(`${server.url}/api/ready`);
        return { status: r.status, body: (await r.json()) as { ready: boolean; checks: Record<string, { ok: boolean }> } };
      },
      (r) => r.status === 200,
      'the standalone server to be ready',
    );
    expect(ready.body).toMatchObject({ ready: true, checks: { database: { ok: true }, portal: { ok: true } } });

    const page = await fetch(`${server.url}/sign-in`, { headers: { Accept: 'text/html' } });
    expect(page.status).toBe(200);
    const html = await page.text();
    const script = /<script[^>]+src="(\/_next\/static\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script, 'a script of the page').toBeTruthy();
    const asset = await fetch(`${server.url}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    await asset.body?.cancel();
  });
});
