'use client';

import { fieldForName } from '@/lib/forms';
import { displayValue } from './display-value';
import { FieldLink, labelOfName } from './field-link';
import { useFormEnv, useRuntime } from './runtime-context';

/**
 * What the last merge did (DESIGN.md §4): answers others changed that were taken in, answers both changed
 * that wait for the person, and edits to items someone removed. Each links to its field.
 */
export function MergeNotices() {
  const { runtime } = useFormEnv();
  const theirs = useRuntime((r) => r.autosave.theirsApplied);
  const conflicts = useRuntime((r) => r.autosave.conflicts);
  const orphaned = useRuntime((r) => r.autosave.orphaned);
  const model = runtime.model;
  const orphanNames = Object.keys(orphaned);
  if (theirs.length === 0 && conflicts.length === 0 && orphanNames.length === 0) return null;
  return (
    <div className="merge-notices">
      {conflicts.length > 0 && (
        <div className="notice warning" role="alert">
          <p>
            <strong>
              {conflicts.length === 1 ? 'One answer needs' : `${conflicts.length} answers need`} your decision:
            </strong>{' '}
            someone else changed {conflicts.length === 1 ? 'it' : 'them'} while you were editing. Your version is
            kept until you choose.
          </p>
          <ul>
            {conflicts.map((c) => (
              <li key={c.name}>
                <FieldLink name={c.name} />
              </li>
            ))}
          </ul>
        </div>
      )}
      {theirs.length > 0 && (
        <div className="notice info" role="status">
          <p>
            <strong>Someone else updated {theirs.length === 1 ? 'an answer' : `${theirs.length} answers`}</strong>; the
            form now shows their version:
          </p>
          <ul>
            {theirs.map((t) => (
              <li key={t.name}>
                <FieldLink name={t.name} />: {displayValue(fieldForName(model, t.name), t.theirs)}
              </li>
            ))}
          </ul>
          <button type="button" className="secondary" onClick={() => runtime.acknowledgeTheirs()}>
            Got it
          </button>
        </div>
      )}
      {orphanNames.length > 0 && (
        <div className="notice warning" role="alert">
          <p>
            <strong>Someone else removed an item you were editing.</strong> Your unsent answers are listed here so you
            can copy them:
          </p>
          <ul>
            {orphanNames.map((n) => (
              <li key={n}>
                {labelOfName(model, n)}: {displayValue(fieldForName(model, n), orphaned[n])}
              </li>
            ))}
          </ul>
          <button type="button" className="secondary" onClick={() => runtime.dismissOrphaned()}>
            Dismiss
          </button>
        </div>
      )}
    </div>
  );
}
