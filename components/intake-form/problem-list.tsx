'use client';

import { forwardRef } from 'react';
import type { Problem } from './form-check';
import { FieldLink } from './field-link';

interface Props {
  problems: readonly Problem[];
  /** What they stand in the way of: "before this application can be submitted". */
  before: string;
}

/** The answers in the way of sending the form, each linked to its field; focused when shown (an alert). */
export const ProblemList = forwardRef<HTMLDivElement, Props>(function ProblemList({ problems, before }, ref) {
  return (
    <div className="notice warning" role="alert" tabIndex={-1} ref={ref} aria-labelledby="missing-title">
      <p id="missing-title">
        <strong>{problems.length === 1 ? 'One answer is' : `${problems.length} answers are`} missing or need attention</strong> {before}:
      </p>
      <ul className="missing-list">
        {problems.map((p, i) => (
          <li key={`${p.name}-${i}`}>
            {p.name ? <FieldLink name={p.name}>{p.label}</FieldLink> : p.label}
            {p.message && p.message !== 'Missing' ? ` — ${p.message}` : ''}
          </li>
        ))}
      </ul>
    </div>
  );
});
