import Link from 'next/link';
import type { OverdueApplication } from '@/lib/bff/reminders';
import { When } from '../ui/when';

/** Staff home: applications past their due date and not submitted, the most overdue first, each a link to its business. */
export function OverdueList({ items }: { items: readonly OverdueApplication[] }) {
  return (
    <section aria-labelledby="ws-overdue" className="ws-panel">
      <h2 id="ws-overdue">Overdue</h2>
      <p className="muted">Past the due date set when inviting, and not submitted.</p>
      {items.length === 0 ? (
        <p>No application is overdue.</p>
      ) : (
        <ul className="ws-list">
          {items.map((o) => {
            const name = o.business_name ?? o.business_id ?? o.application_id;
            return (
              <li key={o.application_id}>
                {o.business_id ? <Link href={`/businesses/${encodeURIComponent(o.business_id)}`}>{name}</Link> : name}
                <div className="muted">
                  Due by <When iso={o.due_at} />
                  {o.client && `; invited ${o.client}`}
                  {o.progress_percent !== null && `; ${o.progress_percent}% answered`}
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
