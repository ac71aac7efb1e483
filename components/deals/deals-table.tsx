import { When } from '../ui/when';
import Link from 'next/link';
import type { DealRowView, DealSummaryView } from '@/lib/bff/deals';
import { TableHead } from '../ui/table-head';
import { dealHref, recipientLabel, statusLabel } from './deal-labels';

interface Props {
  deals: readonly DealRowView[];
  /** Whether to show each deal's business (not on a business's own page). */
  showBusiness: boolean;
  caption: string;
}

/** A Portal deal as a row, with the business it is known to belong to. */
export const dealRowOf = (d: DealSummaryView, business: DealRowView['business']): DealRowView => ({
  id: d.id,
  name: d.name,
  is_sample: d.is_sample,
  for: recipientLabel(d.recipient),
  stage: d.workflow.stage.name,
  status: d.status,
  created_at: d.created_at,
  business,
});


/** The Portal marks sample deals, and the seed's names already say so: never "(sample) (sample)". */
const saysSample = (name: string) => /\(sample\)/i.test(name);

/** A page of deals: who each is for and where it stands in its workflow. */
export function DealsTable({ deals, showBusiness, caption }: Props) {
  return (
    <table className="table stacked">
      <TableHead caption={caption} columns={['Deal', showBusiness && 'Business', 'For', 'Stage', 'Status', 'Created']} />
      <tbody>
        {deals.map((d) => (
          <tr key={d.id}>
            <td data-label="Deal">
              <Link href={dealHref(d.id, d.business?.id)} prefetch={false}>
                {d.name}
              </Link>
              {d.is_sample && !saysSample(d.name) && <span className="muted"> (sample)</span>}
            </td>
            {showBusiness && (
              <td data-label="Business">
                {d.business ? (
                  <Link href={`/businesses/${encodeURIComponent(d.business.id)}`}>{d.business.name ?? d.business.id}</Link>
                ) : (
                  <span className="muted">Not known yet</span>
                )}
              </td>
            )}
            <td data-label="For">{d.for}</td>
            <td data-label="Stage">{d.stage ?? '—'}</td>
            <td data-label="Status">{statusLabel(d.status)}</td>
            <td data-label="Created">{d.created_at ? <When iso={d.created_at} dateOnly /> : '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
