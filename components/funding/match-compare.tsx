'use client';

import type { MatchView } from '@/lib/bff/projects';
import { CRITERION_LABEL, FIT_LABEL, PRODUCT_KIND_LABEL, amountText, rateText, termText } from './funding-labels';

/** Up to three funders side by side: one column each, one row per fact and per criterion. Scrolls inside itself on a phone. */
export function MatchCompare({ matches, onRemove }: { matches: MatchView[]; onRemove(id: string): void }) {
  const criteria = [...new Map(matches.flatMap((m) => m.criteria.map((c) => [c.key, c.label] as const))).entries()];
  const row = (label: string, cell: (m: MatchView) => string) => (
    <tr key={label}>
      <th scope="row">{label}</th>
      {matches.map((m) => (
        <td key={m.id}>{cell(m)}</td>
      ))}
    </tr>
  );
  return (
    <section aria-labelledby="funding-compare-title" className="funding-compare">
      <h3 id="funding-compare-title">Compare</h3>
      {/* A focusable region, so the table can be scrolled with the keyboard when it is wider than the screen. */}
      <div className="funding-compare-scroll" role="region" aria-label="The compared funders, side by side" tabIndex={0}>
        <table>
          <thead>
            <tr>
              <td />
              {matches.map((m) => (
                <th key={m.id} scope="col">
                  {m.recipient.name}
                  <button type="button" className="link-button" onClick={() => onRemove(m.id)}>
                    Remove<span className="visually-hidden"> {m.recipient.name} from the comparison</span>
                  </button>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {row('Product', (m) => `${m.product.name} (${PRODUCT_KIND_LABEL[m.product.kind]})`)}
            {row('Fit', (m) => FIT_LABEL[m.fit])}
            {row('Score', (m) => `${m.score} of 100`)}
            {row('Amount', (m) => amountText(m.amount_range))}
            {row('Rate', (m) => rateText(m.rate_range))}
            {row('Term', (m) => termText(m.term_months))}
            {criteria.map(([key, label]) =>
              row(label, (m) => {
                const c = m.criteria.find((x) => x.key === key);
                return c ? CRITERION_LABEL[c.status] : '—';
              }),
            )}
            {row('Missing documents', (m) => m.documents.filter((d) => d.status === 'missing').map((d) => d.label).join(', ') || 'None')}
          </tbody>
        </table>
      </div>
    </section>
  );
}
