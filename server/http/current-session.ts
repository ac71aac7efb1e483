import 'server-only';
import { cookies } from 'next/headers';
import { readSessionCookie, resolveSessionCached, type ResolvedSession } from '@/server/auth';
import { cookieSettings, sessionPolicy } from '@/server/auth/session-settings';
import { appDb } from '@/server/db/app-db';
import { publicOrigin } from './public-origin';

/** The session of the page being rendered, checked against its server-side record like every API call. */
export async function currentSession(): Promise<ResolvedSession | null> {
  const sid = await readSessionCookie(await cookies(), cookieSettings(publicOrigin()));
  if (!sid) return null;
  return resolveSessionCached(await appDb(), sid, sessionPolicy());
}
