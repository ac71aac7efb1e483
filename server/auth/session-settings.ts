import 'server-only';
import { getEnv } from '@/server/env';
import type { SessionCookieSettings } from './session-cookie';
import type { SessionPolicy } from './session-policy';

/** How long sessions live, from the environment. */
export function sessionPolicy(): SessionPolicy {
  const env = getEnv();
  return { idleMinutes: env.sessionIdleMinutes, absoluteHours: env.sessionAbsoluteHours };
}

/** How the session cookie is sealed and scoped for the app's public origin. */
export function cookieSettings(appOrigin: string): SessionCookieSettings {
  const env = getEnv();
  return { password: env.sessionSecret, appOrigin, maxAgeSeconds: env.sessionAbsoluteHours * 3600 };
}
