import 'server-only';
import { appDb } from '@/server/db/app-db';
import { verifyUnsubscribeToken } from './unsubscribe-link';

/** What the unsubscribe page shows for a token: a made-up or altered one, one already used, or the question. */
export async function unsubscribePageState(token: string): Promise<'invalid' | 'done' | 'ask'> {
  const id = verifyUnsubscribeToken(token);
  if (!id) return 'invalid';
  const db = await appDb();
  const row = await db.one<{ unsubscribed_at: Date | null }>(`SELECT unsubscribed_at FROM invitations WHERE id = $1`, [id]);
  if (!row) return 'invalid';
  return row.unsubscribed_at ? 'done' : 'ask';
}
