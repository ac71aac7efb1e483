import Link from 'next/link';
import type { DealSummaryView } from '@/lib/bff/deals';
import type { Fit } from '@/lib/portal';
import { FIT_LABEL, projectHref } from './funding-labels';

interface Props {
  project: NonNullable<DealSummaryView['project']>;
  /** The match the deal was made from; null when the deal names none, 'unavailable' when it could not be read. */
  match: { recipient: string; product: string; fit: string; score: number } | 'unavailable' | null;
}

/** On a deal made from a funding match: its project and that match. */
export function DealFunding({ project, match }: Props) {
  return (
    <section aria-labelledby="deal-funding-title" className="deals-panel">
      <h2 id="deal-funding-title">Funding match</h2>
      <dl className="deals-facts">
        <dt>Project</dt>
        <dd>
          <Link href={projectHref(project.id)}>{project.name ?? project.id}</Link>
        </dd>
        <dt>Match</dt>
        <dd>
          {match === 'unavailable'
            ? 'The match could not be read just now.'
            : match
              ? `${match.recipient} – ${match.product} (${FIT_LABEL[match.fit as Fit] ?? match.fit}, score ${match.score})`
              : 'The deal does not name its match.'}
        </dd>
      </dl>
    </section>
  );
}
