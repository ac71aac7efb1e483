import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

export interface SpawnedSandbox {
  baseUrl: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Runs the sandbox in its own process (as `npm run sandbox` does), so the load generator does not share
 * its event loop. Port 0: the sandbox picks a free loopback port and prints its base URL.
 */
export function spawnSandbox(env: Record<string, string> = {}): Promise<SpawnedSandbox> {
  const root = resolve(__dirname, '../../..');
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/sandbox/main.ts'], {
    cwd: root,
    env: { ...process.env, SANDBOX_PORT: '0', SANDBOX_HOST: '127.0.0.1', SANDBOX_RATE_LIMIT: 'off', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = () =>
    new Promise<void>((done) => {
      if (child.exitCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGTERM');
    });
  process.once('exit', () => child.kill('SIGKILL'));
  return new Promise((resolvePromise, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`sandbox did not start:\n${out}`)), 30_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /at (http:\/\/\S+\/v1\/)/.exec(out);
      if (m) {
        clearTimeout(timer);
        child.stdout!.removeAllListeners('data');
        child.stdout!.resume();
        resolvePromise({ baseUrl: m[1]!, child, stop });
      }
    });
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}:\n${out}`)));
  });
}
