import Link from 'next/link';
import { ago, type StaffHomeView, type WorkspaceBusiness } from '@/lib/bff/workspace';
import { FreshnessNote } from './freshness-note';
import { ReviewWaitingList } from './review-waiting-list';
import { When } from '../ui/when';
import { businessName } from './format';

const businessHref = (b: { id: string }) => `/businesses/${encodeURIComponent(b.id)}`;
const applicationHref = (b: WorkspaceBusiness) => `/businesses/${encodeURIComponent(b.id)}/application`;

/** Staff home: where each business stands and what needs someone, every item a link into the work. */
export function StaffHome({ home, now }: { home: StaffHomeView; now: string }) {
  const at = new Date(now);
  const pipelines = [...new Map(home.stage_counts.map((c) => [c.pipeline.id, c.pipeline])).values()];
  return (
    <>
      <FreshnessNote freshness={home.freshness} now={now} canRefresh />
      <div className="ws-home">
        <section aria-labelledby="ws-stages" className="ws-panel">
          <h2 id="ws-stages">Businesses by stage</h2>
          {pipelines.length === 0 && <p>No businesses yet.</p>}
          {pipelines.map((p) => (
            <div key={p.id}>
              {pipelines.length > 1 && <h3>{p.name}</h3>}
              <ul className="ws-counts" aria-label={`Stages of ${p.name}`}>
                {home.stage_counts
                  .filter((c) => c.pipeline.id === p.id)
                  .map((c) => (
                    <li key={c.stage.id}>
                      <Link href={`/businesses?stage=${encodeURIComponent(c.stage.id)}`}>
                        <span>{c.stage.name}</span>
                        <span className="ws-count-n">{c.count}</span>
                      </Link>
                    </li>
                  ))}
              </ul>
            </div>
          ))}
          <p>
            <Link href="/businesses">All {home.total_businesses} businesses</Link>
          </p>
        </section>

        <section aria-labelledby="ws-waiting" className="ws-panel">
          <h2 id="ws-waiting">Waiting on the client</h2>
          <p className="muted">Invited, not submitted, and nothing has happened for {home.waiting_days} days or more.</p>
          {home.waiting_on_client.length === 0 ? (
            <p>No invited client has gone quiet.</p>
          ) : (
            <ul className="ws-list">
              {home.waiting_on_client.map((b) => (
                <li key={b.id}>
                  <Link href={businessHref(b)}>{businessName(b)}</Link>
                  <div className="muted">
                    {b.invitation?.state === 'expired' ? 'Invitation expired' : `Invitation ${b.invitation?.state ?? 'sent'}`}; last activity{' '}
                    {b.last_activity_at ? <time dateTime={b.last_activity_at}>{ago(b.last_activity_at, at)}</time> : 'unknown'}
                    {b.application?.progress_percent !== null && b.application?.progress_percent !== undefined && `; ${b.application.progress_percent}% answered`}
                  </div>
                </li>
              ))}
            </ul>
          )}
        </section>

        <section aria-labelledby="ws-submitted" className="ws-panel">
          <h2 id="ws-submitted">Recently submitted</h2>
          {home.recently_submitted.length === 0 ? (
            <p>No application has been submitted yet.</p>
          ) : (
            <ul className="ws-list">
              {home.recently_submitted.map((b) => (
                <li key={b.id}>
                  <Link href={applicationHref(b)} prefetch={false}>
                    {businessName(b)}
                  </Link>
                  <div className="muted">
                    Submitted <When iso={b.application!.submitted_at!} dateOnly />
                  </div>
                </li>
              ))}
            </ul>
          )}
        </section>

        <section aria-labelledby="ws-review" className="ws-panel">
          <h2 id="ws-review">Autofill suggestions waiting for review</h2>
          <ReviewWaitingList items={home.review_waiting} now={now} empty="No Autofill suggestions are waiting." />
        </section>
      </div>
    </>
  );
}
