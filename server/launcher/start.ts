// `npm start` – the whole product on embedded defaults: the Portal sandbox as a child process of its own
// (unless PORTAL_BASE_URL names a real Portal), a production build of the app (rebuilt when sources changed),
// and the app server. `npm run dev` does the same with `next dev`.
import { spawn, spawnSync } from 'node:child_process';
import { isAbsolute, join, relative } from 'node:path';
import { DEMO_FULL_KEY, DEMO_KEYS } from '../../lib/portal/demo-keys';
import { DEMO_ACCOUNTS } from '../auth/demo-users';
import { newWebhookSecret } from '../webhooks/verify';
import { NEXT_BIN, ROOT, buildIfStale } from './build';
import { appInstances } from './instances';
import { startSandboxProcess, type SandboxProcess } from './sandbox-process';

const dev = process.argv.includes('--dev');

async function main() {
  const env: NodeJS.ProcessEnv = { ...process.env };
  const port = env.PORT ?? '3000';
  const host = env.HOST ?? '127.0.0.1';
  // The app's links name the address it listens on unless APP_ORIGIN says otherwise (server/http/public-origin.ts).
  env.PORT = port;
  env.HOST = host;
  let sandbox: SandboxProcess | null = null;
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
      sandbox = await startSandboxProcess(env);
    } catch (e) {
      console.error((e as Error).message);
      process.exit(1);
    }
    env.PORTAL_BASE_URL = sandbox.baseUrl;
    env.PORTAL_API_KEY ??= DEMO_FULL_KEY.token;
  }

  const exit = async (code: number) => {
    await sandbox?.stop();
    process.exit(code);
  };

  // The demo sign-ins, created when missing (before the app opens the database: the embedded one is single-process).
  const seeded = spawnSync(process.execPath, [...process.execArgv, join(ROOT, 'server', 'cli', 'users.ts'), 'seed-demo'], { cwd: ROOT, env, stdio: 'inherit' });
  if (seeded.status !== 0) return exit(seeded.status ?? 1);

  if (!dev) {
    try {
      buildIfStale(env);
    } catch (e) {
      console.error((e as Error).message);
      return exit(1);
    }
  }

  // Several instances share the port through Node's cluster (app-instances.cjs); one is plain `next start`.
  env.APP_INSTANCES = String(instances);
  const [command, args] =
    instances > 1 ? [process.execPath, [join(ROOT, 'server', 'launcher', 'app-instances.cjs')]] : [NEXT_BIN, [dev ? 'dev' : 'start']];
  const app = spawn(command, [...args, '-H', host, '-p', port], { cwd: ROOT, env, stdio: ['inherit', 'pipe', 'inherit'] });
  let announced = false;
  app.stdout!.on('data', (chunk: Buffer) => {
    process.stdout.write(chunk);
    if (announced || !/ready|started|Local:/i.test(chunk.toString())) return;
    announced = true;
    const lines = [
      '',
      `  Intake is running at http://${host === '0.0.0.0' ? 'localhost' : host}:${port}${instances > 1 ? ` (${instances} app instances)` : ''}`,
      sandbox
        ? `  Portal sandbox: ${sandbox.baseUrl} (${sandbox.dataFile ? `state kept in ${shortPath(sandbox.dataFile)}; delete it to start from the seed` : 'state kept in memory'})`
        : `  Portal: ${env.PORTAL_BASE_URL}`,
    ];
    lines.push('  Sign in as:');
    for (const a of DEMO_ACCOUNTS) lines.push(`    ${a.role.padEnd(9)} ${a.email.padEnd(24)} password: ${a.password}`);
    if (sandbox) {
      lines.push('  Sandbox API keys:');
      for (const k of DEMO_KEYS) lines.push(`    ${k.label.padEnd(38)} ${k.token}`);
    }
    console.log(`${lines.join('\n')}\n`);
  });

  // Ctrl-C reaches the whole process group; the app's exit then ends the sandbox too.
  const stop = (signal: NodeJS.Signals) => {
    void sandbox?.stop();
    app.kill(signal);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  sandbox?.onUnexpectedExit((code) => {
    console.error(`The Portal sandbox stopped (exit code ${code}); stopping the app.`);
    app.kill('SIGTERM');
  });
  app.on('exit', (code) => void exit(code ?? 0));
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
