import Link from 'next/link';
import type { ReviewQueueItem, ReviewQueuesView } from '@/lib/bff/review';
import { When } from '@/components/ui/when';

function Queue({ id, title, queue, empty, since }: { id: string; title: string; queue: { count: number; items: ReviewQueueItem[] }; empty: string; since: string }) {
  return (
    <section aria-labelledby={id}>
      <h3 id={id}>
        {title} ({queue.count})
      </h3>
      {queue.items.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <ul>
          {queue.items.map((i) => (
            <li key={i.application_id}>
              <Link href={`/applications/${i.application_id}`}>{i.business_name ?? `Application ${i.application_id}`}</Link> — {since} <When iso={i.since} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Staff home: applications clients sent for review, and those waiting on the client's changes (DESIGN.md §9). */
export function ReviewQueues({ queues }: { queues: ReviewQueuesView }) {
  return (
    <section aria-labelledby="ws-review-queues">
      <h2 id="ws-review-queues">Review before submit</h2>
      <Queue id="ws-in-review" title="In review" queue={queues.in_review} empty="No application is waiting for your review." since="sent" />
      <Queue id="ws-changes-requested" title="Changes requested" queue={queues.changes_requested} empty="No application is waiting on a client’s changes." since="returned" />
    </section>
  );
}
