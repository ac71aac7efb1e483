import type { Metadata } from 'next';
import { OutboxList } from '@/components/messages/outbox-list';
import { appDb } from '@/server/db/app-db';
import { getEnv } from '@/server/env';
import { guardPage, type PageProps } from '@/server/http/page-guard';
import { listOutbox, messageView } from '@/server/messages/outbox';
import '@/components/messages/outbox.css';

export const metadata: Metadata = { title: 'Outbox' };

// /outbox – every message the app has sent or is sending, newest first: to whom, its status, and what it said
export default async function OutboxPage({ searchParams }: PageProps) {
  await guardPage({ path: '/outbox', query: await searchParams, roles: ['staff'] });
  const items = (await listOutbox(await appDb())).map(messageView);
  return (
    <section aria-labelledby="outbox-title" className="ws-page">
      <h1 id="outbox-title">Outbox</h1>
      {!getEnv().smtpUrl && (
        <p className="notice info">SMTP_URL is not set: messages are queued here but not delivered until it is.</p>
      )}
      <p role="status">{items.length === 0 ? 'No messages yet.' : `${items.length} ${items.length === 1 ? 'message' : 'messages'}, newest first.`}</p>
      {items.length > 0 && <OutboxList items={items} />}
    </section>
  );
}
