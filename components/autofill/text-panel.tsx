'use client';

import { useState } from 'react';
import type { PreparationView } from '@/lib/bff/autofill';
import { useUpdatePreparation } from '@/lib/queries/mutations/use-update-preparation';
import { messageOf } from './errors';

interface Props {
  applicationId: string;
  preparation: PreparationView;
  canEdit: boolean;
  /** Tells the page whether unsaved text is waiting (a start would not read it). */
  onDirtyChange(dirty: boolean): void;
}

/**
 * The free text Autofill reads. The person's draft is theirs until they save it: polling never overwrites
 * it. A save quotes the preparation's ETag; on a 412 the preparation is read again, and when only other
 * parts of it changed (a file finished reading) the save simply goes again. When the text itself was
 * changed elsewhere, both texts are shown and the person decides; nothing they typed is dropped.
 */
export function TextPanel({ applicationId, preparation, canEdit, onDirtyChange }: Props) {
  const server = preparation.text_input ?? '';
  const update = useUpdatePreparation(applicationId);
  const [draft, setDraftState] = useState(server);
  // The saved text the draft started from: the third side of the merge.
  const [origin, setOrigin] = useState(server);
  const [theirs, setTheirs] = useState<string | null>(null);
  const [message, setMessage] = useState('');
  const saving = update.isPending;
  const error = update.error ? `The text was not saved. ${messageOf(update.error)}` : '';

  const dirty = draft !== origin;
  const setDraft = (text: string, from = origin) => {
    setDraftState(text);
    onDirtyChange(text !== from);
  };
  // Someone else saved while this person had nothing unsaved: show theirs (a render-time adjustment).
  if (!dirty && theirs === null && server !== origin) {
    setOrigin(server);
    setDraftState(server);
  }

  async function save() {
    if (saving) return;
    setMessage('Saving the text…');
    try {
      const outcome = await update.mutateAsync({
        changes: { text_input: draft },
        // Only other parts of the preparation moved on: the text is still what this person edited.
        stillApplies: (current) => (current.preparation.text_input ?? '') === origin,
      });
      if (outcome.ok) {
        const saved = outcome.reply.preparation.text_input ?? '';
        setOrigin(saved);
        setTheirs(null);
        setDraft(draft, saved);
        setMessage('Text saved.');
      } else {
        const now = outcome.current.preparation.text_input ?? '';
        setOrigin(now);
        setTheirs(now);
        onDirtyChange(true);
        setMessage('');
      }
    } catch {
      setMessage('');
    }
  }

  function useTheirs() {
    if (theirs === null) return;
    setDraft(theirs, theirs);
    setTheirs(null);
    setMessage('Their text is in the box now.');
  }

  return (
    <section className="autofill-panel" aria-labelledby="autofill-text-title">
      <h2 id="autofill-text-title">Text</h2>
      <div className="field">
        <label htmlFor="autofill-text">Text for Autofill</label>
        <p id="autofill-text-help" className="field-help muted">
          Paste anything that answers the application’s questions: notes from a call, an email, “Label: value” lines.
        </p>
        <textarea
          id="autofill-text"
          rows={8}
          value={draft}
          readOnly={!canEdit}
          aria-describedby={`autofill-text-help${theirs !== null ? ' autofill-text-conflict' : ''}`}
          onChange={(e) => setDraft(e.target.value)}
        />
      </div>
      {theirs !== null && (
        <div id="autofill-text-conflict" className="notice warning" role="alert">
          <p>
            <strong>The text was changed elsewhere</strong> while you were editing it. Your text is still in the box;
            the text saved now is:
          </p>
          <blockquote className="autofill-quote">{theirs === '' ? '(empty)' : theirs}</blockquote>
          <p>Save to replace it with yours, or take theirs.</p>
          <div className="actions">
            <button type="button" className="secondary" onClick={useTheirs}>
              Use their text
            </button>
          </div>
        </div>
      )}
      {canEdit && (
        <div className="actions">
          <button type="button" onClick={() => void save()} disabled={saving || (!dirty && theirs === null)}>
            {saving ? 'Saving…' : 'Save text'}
          </button>
          {dirty && !saving && <span className="muted">Unsaved changes</span>}
        </div>
      )}
      <p role="status" className="muted autofill-status">
        {message}
      </p>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
