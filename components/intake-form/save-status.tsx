'use client';

import type { SaveState } from '@/components/intake-form/runtime/form-runtime';
import { FieldLink } from './field-link';
import { useFormEnv, useRuntime } from './runtime-context';
import './save-status.css';

const plural = (n: number, one: string, many: string) => (n === 1 ? one : `${n} ${many}`);

/** The line announced for each state; it never says "saved" while anything is held back or undecided. */
function statusLine(state: SaveState, held: number, conflicts: number): string {
  switch (state) {
    case 'idle':
      return 'Answers save automatically as you type.';
    case 'saving':
      return 'Saving…';
    case 'saved':
      return 'All changes saved.';
    case 'offline':
      return 'Offline — kept on this device. Your changes will be sent when the connection returns.';
    case 'error':
      return 'Not saved.';
    case 'invalid':
      return `${plural(held, 'One answer', 'answers')} not saved — fix ${held === 1 ? 'it' : 'them'}:`;
    case 'conflict':
      return `Waiting for your decision: ${plural(conflicts, 'one answer was', 'answers were')} changed by someone else too (listed above). Everything else is saved.`;
  }
}

/**
 * Where autosave is at, announced politely (DESIGN.md §4: never more than is true): saved, saving, offline (kept on this
 * device), answers held back because they are not valid (each linked, with why), answers waiting for the
 * person's decision, or a failed write with a retry. The held list stays outside the live region, so a
 * screen reader hears the count, not the whole list again on every keystroke.
 */
export function SaveStatus() {
  const { runtime } = useFormEnv();
  const state = useRuntime((r) => r.saveState());
  const lastError = useRuntime((r) => r.autosave.lastError);
  const held = useRuntime((r) => r.heldAnswers());
  const conflicts = useRuntime((r) => r.autosave.conflicts.length);
  // A held answer matters in every state: offline or saving, it still will not be sent as it is.
  const listHeld = held.length > 0;
  return (
    <div className={`save-status ${state}`} data-status={state}>
      <div className="save-status-line">
        <p role="status" aria-live="polite">
          {listHeld && state !== 'invalid'
            ? `${statusLine(state, held.length, conflicts)} ${statusLine('invalid', held.length, conflicts)}`
            : statusLine(state, held.length, conflicts)}
          {state === 'error' && lastError ? ` ${lastError}` : ''}
        </p>
        {state === 'error' && (
          <button type="button" className="secondary" onClick={() => runtime.retryNow()}>
            Retry now
          </button>
        )}
      </div>
      {listHeld && (
        <ul className="save-status-held" aria-label="Answers not saved">
          {held.map((h) => (
            <li key={h.name}>
              <FieldLink name={h.name} />: {h.reason}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
