import { ago } from '@/lib/bff/time-ago';
import type { Freshness } from '@/lib/bff/workspace';
import { RefreshButton } from './refresh-button';

interface Props {
  freshness: Freshness;
  /** When the page was made: "ago" is counted from here. */
  now: string;
  /** Staff may ask for a pass ("Refresh now"). */
  canRefresh: boolean;
}

/**
 * How fresh a workspace view is: these lists are the BFF's copy of the Portal, kept by its events and a
 * regular walk through it, so the page says when each last happened and never claims to be live.
 */
export function FreshnessNote({ freshness, now, canRefresh }: Props) {
  const at = new Date(now);
  const reconciled = freshness.reconciled_at ? (
    <>
      Checked against the Portal <time dateTime={freshness.reconciled_at}>{ago(freshness.reconciled_at, at)}</time>
    </>
  ) : (
    <>Not yet checked against the Portal</>
  );
  return (
    <div className="ws-freshness">
      <p className="muted">
        {reconciled}
        {freshness.last_event_at && (
          <>
            ; last update received <time dateTime={freshness.last_event_at}>{ago(freshness.last_event_at, at)}</time>
          </>
        )}
        .{freshness.reconciling && ' A check is under way.'}
        {freshness.last_error && ' The last check did not finish; the next one picks up where it stopped.'}
      </p>
      {canRefresh && <RefreshButton />}
    </div>
  );
}
