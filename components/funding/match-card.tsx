'use client';

import Link from 'next/link';
import type { MatchView } from '@/lib/bff/projects';
import type { MatchDecisionVerb } from '@/lib/bff/projects';
import { dealHref } from '@/components/deals/deal-labels';
import { CRITERION_LABEL, DECISION_LABEL, FIT_LABEL, PRODUCT_KIND_LABEL, amountText, rateText, termText } from './funding-labels';

interface Props {
  match: MatchView;
  rank: number;
  compared: boolean;
  /** False once three others are being compared. */
  canCompare: boolean;
  busy: boolean;
  businessId: string;
  onDecide(verb: MatchDecisionVerb): void;
  onCompare(): void;
  onCreateDeal(): void;
}

/** One ranked funder: fit, score, ranges, every criterion with the expected and actual values, missing documents, and its actions. */
export function MatchCard({ match: m, rank, compared, canCompare, busy, businessId, onDecide, onCompare, onCreateDeal }: Props) {
  const titleId = `match-${m.id}-title`;
  const missing = m.documents.filter((d) => d.status === 'missing');
  const counts = { met: 0, not_met: 0, unknown: 0 };
  for (const c of m.criteria) counts[c.status] += 1;
  return (
    <li className={`funding-match funding-match-${m.decision}`} aria-labelledby={titleId} data-match={m.id}>
      <div className="funding-match-head">
        <h3 id={titleId}>
          <span className="visually-hidden">{rank}. </span>
          {m.recipient.name}
        </h3>
        <span className={`funding-fit funding-fit-${m.fit}`}>{FIT_LABEL[m.fit]}</span>
        {m.decision !== 'none' && <span className="funding-decision">{DECISION_LABEL[m.decision]}</span>}
      </div>
      <p>
        {m.product.name} · {PRODUCT_KIND_LABEL[m.product.kind]}
      </p>
      <div className="funding-score">
        <span id={`${titleId}-score`}>Score {m.score} of 100</span>
        <meter min={0} max={100} value={m.score} aria-labelledby={`${titleId}-score`} />
      </div>
      <dl className="funding-ranges">
        <div>
          <dt>Amount</dt>
          <dd>{amountText(m.amount_range)}</dd>
        </div>
        <div>
          <dt>Rate</dt>
          <dd>{rateText(m.rate_range)}</dd>
        </div>
        <div>
          <dt>Term</dt>
          <dd>{termText(m.term_months)}</dd>
        </div>
      </dl>
      <details className="funding-why">
        <summary>
          Why: {counts.met} met, {counts.not_met} not met, {counts.unknown} unknown
          <span className="visually-hidden"> ({m.recipient.name})</span>
        </summary>
        <ul className="funding-criteria-list">
          {m.criteria.map((c) => (
            <li key={c.key} className={`funding-criterion funding-criterion-${c.status}`}>
              <strong>
                {CRITERION_LABEL[c.status]}: {c.label}
              </strong>
              <span>
                Expected {c.expected}; the criteria say {c.actual ?? 'nothing yet'}.
              </span>
              {c.message && <span className="muted">{c.message}</span>}
            </li>
          ))}
        </ul>
      </details>
      {missing.length > 0 && (
        <p>
          <strong>Missing documents:</strong> {missing.map((d) => d.label).join(', ')}
        </p>
      )}
      <div className="actions funding-actions">
        {m.decision !== 'shortlisted' && (
          <button type="button" onClick={() => onDecide('shortlist')} disabled={busy} aria-describedby={titleId}>
            Shortlist
          </button>
        )}
        {m.decision !== 'dismissed' && !m.deal && (
          <button type="button" className="secondary" onClick={() => onDecide('dismiss')} disabled={busy} aria-describedby={titleId}>
            Dismiss
          </button>
        )}
        <label className="option">
          <input type="checkbox" checked={compared} disabled={!canCompare} onChange={onCompare} aria-describedby={titleId} />
          <span>Compare</span>
        </label>
        {m.deal ? (
          <Link href={dealHref(m.deal.id, businessId)}>Open the deal</Link>
        ) : (
          m.decision === 'shortlisted' && (
            <button type="button" onClick={onCreateDeal} disabled={busy} aria-describedby={titleId}>
              Create deal
            </button>
          )
        )}
      </div>
    </li>
  );
}
