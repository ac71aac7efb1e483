// Vitest global setup: a throwaway PostgreSQL cluster (the database tests run on it and on PGlite), then
// the BFF stack on top of it for the route tests. Failures are handed to the test files, which fail.
import type { TestProject } from 'vitest/node';
import * as postgres from './postgres-global-setup';
import { startBffStack } from './bff-stack';

let stopBff: (() => Promise<void>) | null = null;

export async function setup(project: TestProject): Promise<void> {
  await postgres.setup(project);
  const pgUrl = project.getProvidedContext().testPostgres?.url;
  if (!pgUrl) {
    project.provide('bff', { error: 'PostgreSQL is not available for the BFF stack' });
    return;
  }
  try {
    const { provided, stop } = await startBffStack(pgUrl);
    stopBff = stop;
    project.provide('bff', provided);
  } catch (e) {
    project.provide('bff', { error: e instanceof Error ? e.message : String(e) });
  }
}

export async function teardown(): Promise<void> {
  await stopBff?.();
  stopBff = null;
  postgres.teardown();
}
