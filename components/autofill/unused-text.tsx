'use client';

import { useQuery } from '@tanstack/react-query';
import { unusedTextQuery } from '@/lib/queries/autofill';

/** After a run: the lines of the text no suggestion came from, so the person knows what to rewrite or leave out. */
export function UnusedText({ applicationId, runId }: { applicationId: string; runId: string }) {
  const { data, error } = useQuery(unusedTextQuery(applicationId, runId));
  if (error) return <p className="muted">Which lines of the text were used could not be read.</p>;
  if (!data || !data.run_completed || data.line_count === 0) return null;
  const changed = data.text_changed_since ? ' The text was changed after this run, so these are lines of the text as it is now.' : '';
  if (data.lines.length === 0) return <p>Every line of the text gave a suggestion.{changed}</p>;
  const n = data.lines.length;
  return (
    <section aria-labelledby="autofill-unused-title" className="autofill-unused">
      <h3 id="autofill-unused-title">Lines Autofill could not use</h3>
      <p>
        {n === 1 ? 'One line' : `${n} of the ${data.line_count} lines`} of the text gave no suggestion: Autofill found no answer in
        {n === 1 ? ' it' : ' them'}.{changed}
      </p>
      <ul className="autofill-unused-lines">
        {data.lines.map((line, i) => (
          <li key={i}>{line}</li>
        ))}
      </ul>
    </section>
  );
}
