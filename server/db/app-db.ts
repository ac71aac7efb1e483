import 'server-only';
import { getEnv } from '@/server/env';
import { getDb } from './get-db';
import type { Db } from './types';

/** The process-wide database of the app, configured from the environment. */
export function appDb(): Promise<Db> {
  const env = getEnv();
  return getDb({ url: env.databaseUrl, dataDir: env.dataDir });
}
