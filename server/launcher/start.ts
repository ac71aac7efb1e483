// `npm start` – the whole product on embedded defaults: the Portal sandbox (unless PORTAL_BASE_URL names a
// real Portal), a production build of the app (rebuilt when sources changed), and the app server.
// `npm run dev` does the same with `next dev`.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { optionsFromEnv } from '../sandbox/config';
import { DEMO_KEYS } from '../sandbox/keys';
import { startSandbox } from '../sandbox/server';

const root = resolve(__dirname, '../..');
const dev = process.argv.includes('--dev');
const nextBin = join(root, 'node_modules', '.bin', 'next');

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

/** A build is stale when any source the app is built from changed after it. */
function buildIsCurrent() {
  const buildId = join(root, '.next', 'BUILD_ID');
  if (!existsSync(buildId)) return false;
  const built = statSync(buildId).mtimeMs;
  const sources = ['app', 'components', 'lib', 'server', 'public', 'next.config.js', 'package.json', 'tsconfig.json'];
  return sources.every((s) => !existsSync(join(root, s)) || newestMtime(join(root, s)) <= built);
}

async function main() {
  const env: NodeJS.ProcessEnv = { ...process.env };
  const port = env.PORT ?? '3000';
  const host = env.HOST ?? '127.0.0.1';
  let sandbox: Awaited<ReturnType<typeof startSandbox>> | null = null;

  if (!env.PORTAL_BASE_URL) {
    const options = optionsFromEnv({ SANDBOX_DATA_FILE: join(root, '.data', 'sandbox.json'), ...env });
    sandbox = await startSandbox(options);
    env.PORTAL_BASE_URL = sandbox.baseUrl;
    env.PORTAL_API_KEY ??= DEMO_KEYS.find((k) => k.id === 'key_demofull')!.token;
  }

  if (!dev && !buildIsCurrent()) {
    console.log('Building the app (next build)…');
    const built = spawnSync(nextBin, ['build'], { cwd: root, env, stdio: 'inherit' });
    if (built.status !== 0) process.exit(built.status ?? 1);
  }

  const app = spawn(nextBin, [dev ? 'dev' : 'start', '-H', host, '-p', port], { cwd: root, env, stdio: ['inherit', 'pipe', 'inherit'] });
  let announced = false;
  app.stdout!.on('data', (chunk: Buffer) => {
    process.stdout.write(chunk);
    if (announced || !/ready|started|Local:/i.test(chunk.toString())) return;
    announced = true;
    const lines = [
      '',
      `  Intake is running at http://${host === '0.0.0.0' ? 'localhost' : host}:${port}`,
      sandbox
        ? `  Portal sandbox: ${sandbox.baseUrl} (state kept in .data/sandbox.json; delete it to start from the seed)`
        : `  Portal: ${env.PORTAL_BASE_URL}`,
    ];
    if (sandbox) {
      lines.push('  Sandbox API keys:');
      for (const k of DEMO_KEYS) lines.push(`    ${k.label.padEnd(38)} ${k.token}`);
    }
    console.log(`${lines.join('\n')}\n`);
  });

  const stop = (signal: NodeJS.Signals) => {
    app.kill(signal);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  app.on('exit', (code) => {
    void (sandbox?.close() ?? Promise.resolve()).then(() => process.exit(code ?? 0));
  });
}

void main();
