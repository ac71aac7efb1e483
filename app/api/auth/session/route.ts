import { route, sessionOf } from '@/server/http/route';
import { sessionView } from '@/server/auth/session-view';

// GET /api/auth/session – who is signed in (null when nobody)
export const GET = route({ roles: 'public' }, async ({ req, db, origin }) => {
  const session = await sessionOf(req, db, origin);
  return { body: { session: session ? sessionView(session) : null } };
});
