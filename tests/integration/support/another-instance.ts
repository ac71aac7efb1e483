import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startNextServer, type NextServer } from '../../e2e/support/next-server';
import { bffStack } from './bff';

export interface AnotherInstanceOptions {
  /** Names the log directory (bff-<name>-…). */
  name: string;
  /** Variables of the shared instance's environment this one goes without. */
  without?: readonly string[];
  /** Variables this one has instead (e.g. a Portal that does not answer); a function is read when it starts. */
  with?: Readonly<Record<string, string>> | (() => Readonly<Record<string, string>>);
  /** App instances behind its one port (APP_INSTANCES). */
  instances?: number;
}

/**
 * One more app server on the shared stack (same database, same sandbox) for the tests of the enclosing file or
 * describe block: started before them, stopped after. Returns how to reach it once it runs.
 */
export function anotherInstance({ name, without = [], with: extra = {}, instances }: AnotherInstanceOptions): () => NextServer {
  let server: NextServer | null = null;
  beforeAll(async () => {
    const env = { ...bffStack().appEnv, ...(typeof extra === 'function' ? extra() : extra) };
    for (const key of without) delete env[key];
    server = await startNextServer({ env, instances, logFile: join(mkdtempSync(join(tmpdir(), `bff-${name}-`)), 'next.log') });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });
  return () => {
    if (server === null) throw new Error(`the ${name} instance is not running`);
    return server;
  };
}
