import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { unsubscribePageState } from '@/server/reminders/unsubscribe-page';

export const metadata: Metadata = { title: 'Stop reminders', robots: { index: false, follow: false } };

// /unsubscribe/<token> – where a reminder's unsubscribe link leads a person: it asks before anything changes (a
// link scanner's GET must not unsubscribe), and a plain form posts the one-click request, so no script is needed.
export default async function UnsubscribePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const state = await unsubscribePageState(token);
  // A made-up or altered link is no page at all (404), as any unknown address is.
  if (state === 'invalid') notFound();
  if (state === 'done') {
    return (
      <section aria-labelledby="unsubscribe-title">
        <h1 id="unsubscribe-title">You will get no more reminders</h1>
        <p>No more reminders about this application will be sent to you. Your invitation link still works if you want to finish it.</p>
      </section>
    );
  }
  return (
    <section aria-labelledby="unsubscribe-title">
      <h1 id="unsubscribe-title">Stop reminders about this application?</h1>
      <p>You will get no more reminder emails about it. Your invitation link keeps working, and your answers are kept.</p>
      <form method="post" action={`/api/unsubscribe/${encodeURIComponent(token)}`}>
        <input type="hidden" name="List-Unsubscribe" value="One-Click" />
        <button type="submit">
          Stop reminders
        </button>
      </form>
    </section>
  );
}
