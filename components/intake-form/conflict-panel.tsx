'use client';

import { useState } from 'react';
import { useFormContext } from 'react-hook-form';
import type { Conflict, FieldModel } from '@/lib/forms';
import { displayValue } from './display-value';
import { fromDomValue, inputIdOf } from './dom-values';
import { useFormEnv } from './runtime-context';

/**
 * A field both I and someone else changed (DESIGN.md §4): both values side by side and the three ways out.
 * Nothing is decided for the person; until they choose, their value stays in the box and is not sent.
 */
export function ConflictPanel({ field, name, conflict, label }: { field: FieldModel; name: string; conflict: Conflict; label: string }) {
  const { runtime } = useFormEnv();
  const { getValues } = useFormContext();
  const [editing, setEditing] = useState(false);
  const headingId = `${inputIdOf(name)}-conflict`;
  return (
    <div className="conflict" role="group" aria-labelledby={headingId}>
      <p id={headingId} className="conflict-title">
        Someone else changed “{label}” while you were editing it.
      </p>
      <dl className="conflict-values">
        <div>
          <dt>Your answer</dt>
          <dd>{displayValue(field, conflict.mine)}</dd>
        </div>
        <div>
          <dt>Their answer</dt>
          <dd>{displayValue(field, conflict.theirs)}</dd>
        </div>
      </dl>
      <div className="actions">
        {editing ? (
          <button type="button" onClick={() => runtime.resolve(name, { value: fromDomValue(field, getValues(name)) })}>
            Use what is in the box
          </button>
        ) : (
          <>
            <button type="button" onClick={() => runtime.resolve(name, 'mine')}>
              Keep mine
            </button>
            <button type="button" className="secondary" onClick={() => runtime.resolve(name, 'theirs')}>
              Take theirs
            </button>
            <button
              type="button"
              className="secondary"
              onClick={() => {
                setEditing(true);
                document.getElementById(inputIdOf(name))?.focus();
              }}
            >
              Edit
            </button>
          </>
        )}
      </div>
    </div>
  );
}
