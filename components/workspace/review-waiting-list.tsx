import Link from 'next/link';
import { ago, type ReviewWaiting } from '@/lib/bff/workspace';

/** Applications with pending suggestions, the longest waiting first, each linking to its review queue. */
export function ReviewWaitingList({ items, now, empty }: { items: readonly ReviewWaiting[]; now: string; empty: string }) {
  const at = new Date(now);
  if (items.length === 0) return <p>{empty}</p>;
  return (
    <ul className="ws-list">
      {items.map((r) => {
        const name = r.business?.name ?? r.business?.id ?? r.application_id;
        return (
          <li key={r.application_id}>
            <Link href={`/applications/${encodeURIComponent(r.application_id)}/review`}>
              Review {r.pending_count} {r.pending_count === 1 ? 'suggestion' : 'suggestions'} for {name}
            </Link>
            {r.oldest_pending_at && (
              <div className="muted">
                Oldest waiting since <time dateTime={r.oldest_pending_at}>{ago(r.oldest_pending_at, at)}</time>
              </div>
            )}
          </li>
        );
      })}
    </ul>
  );
}
