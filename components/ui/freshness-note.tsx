import type { Freshness } from '@/lib/bff/workspace';
import { When } from '../businesses/format';

/** How fresh a view from the read model is: its rows are a copy, kept by webhooks and the reconciler. */
export function FreshnessNote({ freshness }: { freshness: Freshness }) {
  const at = [freshness.reconciled_at, freshness.last_event_at].filter((t): t is string => t !== null).sort().at(-1);
  return (
    <p className="muted freshness">
      {at ? (
        <>
          As of <When iso={at} />
        </>
      ) : (
        'Not yet read from the Portal'
      )}
      {freshness.reconciling ? '; a refresh is under way.' : '.'}
    </p>
  );
}
