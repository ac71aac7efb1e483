import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './build';

/** How long the sandbox may take to load its seed or its state file and listen. */
const START_TIMEOUT_MS = 60_000;

export interface SandboxProcess {
  /** The Portal base URL it serves, e.g. http://127.0.0.1:4010/v1/. */
  baseUrl: string;
  /** Where it keeps its state, or null in memory only. */
  dataFile: string | null;
  /** Stops it (SIGTERM: it saves its state and exits) and resolves once it has exited. */
  stop(): Promise<void>;
  /** Called when it exits without being asked to. */
  onUnexpectedExit(listener: (code: number | null) => void): void;
}

const isReady = (m: unknown): m is { type: 'sandbox-ready'; baseUrl: string; dataFile: string | null } =>
  typeof m === 'object' && m !== null && (m as { type?: unknown }).type === 'sandbox-ready' && typeof (m as { baseUrl?: unknown }).baseUrl === 'string';

/**
 * The Portal sandbox as a child process of its own (`server/sandbox/main.ts` under the same tsx loader as
 * this launcher), configured by the SANDBOX_* variables of `env`. It reports its address over the IPC
 * channel once it listens, and stops on its own when this process goes away (the channel closes). `abort`
 * stops it while it is still starting.
 */
export function startSandboxProcess(env: NodeJS.ProcessEnv, abort?: AbortSignal): Promise<SandboxProcess> {
  const child = spawn(process.execPath, [...process.execArgv, join(ROOT, 'server', 'sandbox', 'main.ts')], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let stopping = false;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // Stopped before it is ready: it exits, and the promise below says so. Once ready, only stop() stops it, so that
  // a launcher told to stop keeps it running until the app has drained.
  const stopStarting = () => child.kill('SIGTERM');
  abort?.addEventListener('abort', stopStarting, { once: true });

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error(`The Portal sandbox did not start within ${START_TIMEOUT_MS / 1000} s.`));
    }, START_TIMEOUT_MS);
    const early = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`The Portal sandbox stopped before it was ready (exit code ${code}); see its message above.`));
    };
    child.once('exit', early);
    child.on('message', (m) => {
      if (!isReady(m)) return;
      clearTimeout(timer);
      abort?.removeEventListener('abort', stopStarting);
      child.off('exit', early);
      resolve({
        baseUrl: m.baseUrl,
        dataFile: m.dataFile,
        stop: async () => {
          stopping = true;
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          await exited;
        },
        onUnexpectedExit: (listener) => {
          void exited.then((code) => {
            if (!stopping) listener(code);
          });
        },
      });
    });
  });
}
