import Link from 'next/link';
import { When } from '@/components/ui/when';
import type { TimelineView } from '@/lib/bff/timeline';
import './application-timeline.css';

interface Props {
  applicationId: string;
  business: { id: string; name: string } | null;
  timeline: TimelineView;
}

/** An application's timeline, newest first: invitations, answers changed and by whom, documents, submit. */
export function ApplicationTimeline({ applicationId, business, timeline }: Props) {
  return (
    <div className="timeline-page">
      <h1>Timeline</h1>
      {business && (
        <p>
          Of the application of <Link href={`/businesses/${encodeURIComponent(business.id)}`}>{business.name}</Link>
        </p>
      )}
      <nav aria-label="Application" className="timeline-links">
        <Link href={`/applications/${applicationId}`}>Application form</Link>
      </nav>
      {timeline.items.length === 0 ? (
        <p>Nothing has happened to this application in this app yet.</p>
      ) : (
        <ol className="timeline">
          {timeline.items.map((item) => (
            <li key={item.key}>
              <span className="timeline-when">
                <When iso={item.at} />
              </span>
              <span className="timeline-text">
                {item.text}
                {item.change && (
                  <>
                    {item.change.from !== null && (
                      <>
                        {' '}
                        from “<span className="timeline-value">{item.change.from}</span>”
                      </>
                    )}{' '}
                    to “<span className="timeline-value">{item.change.to}</span>”
                  </>
                )}
              </span>
            </li>
          ))}
        </ol>
      )}
      {timeline.olderBefore && (
        <p>
          <Link href={`/applications/${applicationId}/timeline?before=${encodeURIComponent(timeline.olderBefore)}`}>Older events</Link>
        </p>
      )}
    </div>
  );
}
