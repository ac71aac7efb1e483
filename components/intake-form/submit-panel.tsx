'use client';

import { useRef, useState } from 'react';
import { ApiError, referencedMessage } from '@/lib/api/api-error';
import type { ApplicationView } from '@/lib/bff/applications';
import { answerName, itemName, type MissingEntry } from '@/lib/forms';
import { useSubmitApplication } from '@/lib/queries/mutations/use-submit-application';
import { FieldLink, labelOfName } from './field-link';
import { useFormEnv } from './runtime-context';

interface Problem {
  readonly name: string;
  readonly label: string;
  readonly message: string;
}

const describe = (m: MissingEntry): string => {
  const where = m.groupLabel && m.itemNumber ? `${m.groupLabel} ${m.itemNumber} – ` : '';
  return m.kind === 'group' ? `${m.groupLabel ?? m.label}` : `${where}${m.label}`;
};

/**
 * Submit: first everything typed is saved, then the form's own check lists what is missing (each linked
 * to its field); the Portal has the last word, and its 422 list is shown the same way.
 */
export function SubmitPanel({ onSubmitted }: { onSubmitted(app: ApplicationView): void }) {
  const { runtime, apiBase } = useFormEnv();
  const submitter = useSubmitApplication(apiBase);
  const [busy, setBusy] = useState<string | null>(null);
  const [problems, setProblems] = useState<Problem[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const listRef = useRef<HTMLDivElement>(null);

  const show = (list: Problem[]) => {
    setProblems(list);
    runtime.markSubmitAttempted();
    requestAnimationFrame(() => listRef.current?.focus());
  };

  const submit = async () => {
    setFailure(null);
    setProblems(null);
    setBusy('Saving your latest answers…');
    try {
      // The form's own check needs the whole contract: the page may still be reading it (opened on one section).
      await runtime.whenComplete();
      await runtime.whenSettled();
      const s = runtime.autosave;
      if (s.conflicts.length > 0) {
        show(s.conflicts.map((c) => ({ name: c.name, label: labelOfName(runtime.model, c.name), message: 'Choose which answer to keep' })));
        return;
      }
      // Answers held back (not valid, or refused by the Portal) will not be sent as they are: say which and why.
      const held = runtime.heldAnswers();
      if (held.length > 0) {
        show(held.map((h) => ({ name: h.name, label: labelOfName(runtime.model, h.name), message: h.reason })));
        return;
      }
      if (!s.online || Object.keys(s.pending).length > 0 || s.inFlight) {
        setFailure('Some answers are not saved yet. Submit again once the status says “All changes saved”.');
        return;
      }
      const errors = runtime.validator.validateAll(runtime.values, runtime.visibility);
      const missing = runtime.progress().missing;
      const listed = new Set(missing.map((m) => m.name));
      const local: Problem[] = [
        ...missing.map((m) => ({ name: m.name, label: describe(m), message: errors[m.name] ?? 'Missing' })),
        ...Object.entries(errors)
          .filter(([n]) => !listed.has(n))
          .map(([name, message]) => ({ name, label: labelOfName(runtime.model, name), message })),
      ];
      if (local.length > 0) {
        show(local);
        return;
      }
      setBusy('Submitting…');
      const app = await submitter.mutateAsync();
      runtime.clearStorage();
      onSubmitted(app);
    } catch (e) {
      if (e instanceof ApiError && e.status === 422 && e.details.length > 0) {
        show(
          e.details.map((d) => {
            const name =
              d.schema_key && d.field_key
                ? d.item_id
                  ? itemName(d.item_id, d.schema_key, d.field_key)
                  : answerName(d.block_key ?? d.schema_key, d.schema_key, d.field_key)
                : '';
            return { name, label: name ? labelOfName(runtime.model, name) : d.message, message: d.message };
          }),
        );
      } else {
        setFailure(e instanceof ApiError ? referencedMessage(e) : 'Submitting failed. Try again.');
      }
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="submit-panel" aria-labelledby="submit-title">
      <h2 id="submit-title">Submit</h2>
      <p className="muted">Check your answers, then submit. After submitting, the answers can no longer be changed.</p>
      {problems && problems.length > 0 && (
        <div className="notice warning" role="alert" tabIndex={-1} ref={listRef} aria-labelledby="missing-title">
          <p id="missing-title">
            <strong>
              {problems.length === 1 ? 'One answer is' : `${problems.length} answers are`} missing or need attention
            </strong>{' '}
            before this application can be submitted:
          </p>
          <ul className="missing-list">
            {problems.map((p, i) => (
              <li key={`${p.name}-${i}`}>
                {p.name ? (
                  <FieldLink name={p.name}>{p.label}</FieldLink>
                ) : (
                  p.label
                )}
                {p.message && p.message !== 'Missing' ? ` — ${p.message}` : ''}
              </li>
            ))}
          </ul>
        </div>
      )}
      {failure && (
        <p className="form-error" role="alert">
          {failure}
        </p>
      )}
      <button type="button" onClick={submit} disabled={busy !== null} aria-describedby={busy ? 'submit-busy' : undefined}>
        Submit application
      </button>
      {busy && (
        <p id="submit-busy" role="status">
          {busy}
        </p>
      )}
    </section>
  );
}
