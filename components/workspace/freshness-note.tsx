import { ago } from '@/lib/bff/time-ago';
import type { Freshness, ReconcileStep, SkippedStep } from '@/lib/bff/workspace';
import { RefreshButton } from './refresh-button';

interface Props {
  freshness: Freshness;
  /** When the page was made: "ago" is counted from here. */
  now: string;
  /** Staff may ask for a pass ("Refresh now"). */
  canRefresh: boolean;
}

/** What a check that could not read a part of the Portal left out, for "This check could not read …". */
const STEP_LABEL: Record<ReconcileStep, string> = {
  deals: 'the deals',
  deal_businesses: 'which business each deal is for',
  pending_suggestions: 'the Autofill suggestions waiting for review',
  projects: 'the funding projects',
};

/** What a Portal that does not offer a part means for these views (funding is said where it would be, not here). */
const NOT_OFFERED: Partial<Record<ReconcileStep, string>> = {
  deals: 'This Portal does not list its deals, so none are shown here.',
  deal_businesses: 'This Portal does not list deals by business, so a deal made outside this app shows no business.',
  pending_suggestions: 'This Portal does not let the app read Autofill suggestions, so none are counted.',
};

function skippedSentences(skipped: readonly SkippedStep[]): string[] {
  const failed = skipped.filter((s) => s.why === 'failed').map((s) => STEP_LABEL[s.step]);
  const sentences = skipped.filter((s) => s.why === 'not_offered').flatMap((s) => NOT_OFFERED[s.step] ?? []);
  if (failed.length > 0) sentences.unshift(`That check could not read ${failed.join(', ')}; the next one tries again.`);
  return sentences;
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
      {skippedSentences(freshness.skipped).map((sentence) => (
        <p key={sentence} className="muted">
          {sentence}
        </p>
      ))}
      {canRefresh && <RefreshButton />}
    </div>
  );
}
