import 'server-only';
import { appDb } from '@/server/db/app-db';
import { addQueryGauge } from './metrics';

/**
 * The outbox by template and status at every scrape: `queued` is the mail queue's depth, `failed` what staff
 * must resend. Both labels are bounded (the templates the app has, the row's status values); the figures are
 * the database's, so every instance reports the same ones.
 */
export function addOutboxGauge(): void {
  addQueryGauge('outbox_messages', 'Messages in the outbox, by template and status (queued: waiting for delivery; failed: given up).', ['template', 'status'], async () => {
    const db = await appDb();
    const rows = await db.query<{ template: string; status: string; n: number | string }>('SELECT template, status, count(*) AS n FROM outbox GROUP BY template, status');
    return rows.map((r) => ({ labels: { template: r.template, status: r.status }, value: Number(r.n) }));
  });
}
