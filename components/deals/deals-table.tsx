import Link from 'next/link';
import type { DealSummaryView } from '@/lib/bff/deals';
import { TableHead } from '../ui/table-head';
import { dealHref, recipientLabel, statusLabel } from './deal-labels';

interface Props {
  deals: readonly DealSummaryView[];
  /** The business every deal of the list belongs to, when the list is one business's. */
  business: { id: string; name: string | null } | null;
  caption: string;
}

const dateOf = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });

/** A page of deals: who each is for and where it stands in its workflow. */
export function DealsTable({ deals, business, caption }: Props) {
  return (
    <table className="table stacked">
      <TableHead caption={caption} columns={['Deal', business !== null && 'Business', 'For', 'Stage', 'Status', 'Last updated']} />
      <tbody>
        {deals.map((d) => (
          <tr key={d.id}>
            <td data-label="Deal">
              <Link href={dealHref(d.id, business?.id)} prefetch={false}>
                {d.name}
              </Link>
              {d.is_sample && <span className="muted"> (sample)</span>}
            </td>
            {business && <td data-label="Business">{business.name ?? business.id}</td>}
            <td data-label="For">{recipientLabel(d.recipient)}</td>
            <td data-label="Stage">{d.workflow.stage.name}</td>
            <td data-label="Status">{statusLabel(d.status)}</td>
            <td data-label="Last updated">
              <time dateTime={d.updated_at}>{dateOf(d.updated_at)}</time>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
