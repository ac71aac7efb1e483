import Link from 'next/link';
import type { DealSummaryView } from '@/lib/bff/deals';
import { TableHead } from '../ui/table-head';
import { dealHref, recipientLabel, statusLabel } from './deal-labels';

/** A deal with the business it was made for, where that is known (the Portal's deal does not name it). */
export type DealRow = DealSummaryView & { business?: { id: string; name: string | null } | null };

interface Props {
  deals: readonly DealRow[];
  /** Whether to show each deal's business (not on a business's own page). */
  showBusiness: boolean;
  caption: string;
}

const dateOf = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });

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
                {d.business ? <Link href={`/businesses/${encodeURIComponent(d.business.id)}`}>{d.business.name ?? d.business.id}</Link> : <span className="muted">Not known yet</span>}
              </td>
            )}
            <td data-label="For">{recipientLabel(d.recipient)}</td>
            <td data-label="Stage">{d.workflow.stage.name}</td>
            <td data-label="Status">{statusLabel(d.status)}</td>
            <td data-label="Created">
              <time dateTime={d.created_at}>{dateOf(d.created_at)}</time>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
