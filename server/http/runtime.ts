import 'server-only';
import { getDb } from '@/server/db';
import type { Db } from '@/server/db/types';
import { getEnv } from '@/server/env';
import type { SessionCookieSettings, SessionPolicy } from '@/server/auth';

/** The process-wide database, configured from the environment. */
export function appDb(): Promise<Db> {
  const env = getEnv();
  return getDb({ url: env.databaseUrl, dataDir: env.dataDir });
}

export function sessionPolicy(): SessionPolicy {
  const env = getEnv();
  return { idleMinutes: env.sessionIdleMinutes, absoluteHours: env.sessionAbsoluteHours };
}

export function cookieSettings(appOrigin: string): SessionCookieSettings {
  const env = getEnv();
  return { password: env.sessionSecret, appOrigin, maxAgeSeconds: env.sessionAbsoluteHours * 3600 };
}
