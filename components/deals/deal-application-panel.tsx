import { When } from '../ui/when';
import Link from 'next/link';
import type { DealApplicationSummary } from '@/lib/bff/deals';

interface Props {
  dealId: string;
  /** The deal's business, when the page knows it: the form's way back leads to the same page. */
  businessId: string | null;
  applicationId: string | null;
  summary: DealApplicationSummary | 'unavailable' | null;
}


/** The deal's application: how far it is, and the way into its form. */
export function DealApplicationPanel({ dealId, businessId, applicationId, summary }: Props) {
  return (
    <section className="deals-panel" aria-labelledby="deal-application-title">
      <h2 id="deal-application-title">Deal application</h2>
      {applicationId === null ? (
        <p>This deal has no application.</p>
      ) : (
        <>
          {summary === 'unavailable' || summary === null ? (
            <p className="muted">The application’s progress could not be read just now.</p>
          ) : (
            <dl className="deals-facts">
              <dt>Form</dt>
              <dd>{summary.title}</dd>
              <dt>Status</dt>
              <dd>{summary.application.status?.label ?? 'Unknown'}</dd>
              <dt>Progress</dt>
              <dd>
                <progress max={100} value={summary.progress.percent} aria-label="Deal application progress" /> {summary.progress.percent}% (
                {summary.progress.answered} of {summary.progress.total} required answers)
              </dd>
              {summary.application.submitted_at && (
                <>
                  <dt>Submitted</dt>
                  <dd>
                    <When iso={summary.application.submitted_at} />
                  </dd>
                </>
              )}
            </dl>
          )}
          <p>
            <Link href={`/deal-applications/${encodeURIComponent(applicationId)}?${new URLSearchParams({ deal_id: dealId, ...(businessId ? { business_id: businessId } : {}) })}`}>
              {summary !== 'unavailable' && summary?.application.submitted_at ? 'Read the deal application' : 'Open the deal application'}
            </Link>
          </p>
        </>
      )}
    </section>
  );
}
