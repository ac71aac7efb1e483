'use client';

import { useState } from 'react';
import type { PreparationView, RunView } from '@/lib/bff/autofill';
import { fileSettled } from '@/lib/queries/autofill';
import { useStartAutofill } from '@/lib/queries/mutations/use-start-autofill';
import { useUpdatePreparation } from '@/lib/queries/mutations/use-update-preparation';
import { messageOf } from './errors';

type AiMode = PreparationView['ai_mode'];

interface Props {
  applicationId: string;
  preparation: PreparationView;
  latestRun: RunView | null;
  canEdit: boolean;
  /** The text box holds changes that are not saved (a run would not read them). */
  textDirty: boolean;
}

const MODES: ReadonlyArray<{ value: AiMode; label: string; help: string }> = [
  { value: 'fast', label: 'Fast', help: 'A quick read; good for clear “label: value” documents.' },
  { value: 'thinking', label: 'Thinking', help: 'Slower, reads each document more carefully.' },
];

/** Why Start is not offered now, in the person's terms; null when it is. */
function blocker(p: PreparationView, latestRun: RunView | null, textDirty: boolean): string | null {
  if (textDirty) return 'Save your text first: Autofill reads only what is saved.';
  if (p.can_start) return null;
  if (latestRun && (latestRun.status === 'pending' || latestRun.status === 'running')) return 'A run is in progress; wait for it to finish.';
  const reading = p.evidence_sources.filter((s) => !fileSettled(s.status)).length;
  if (reading > 0) return `${reading} document${reading === 1 ? ' is' : 's are'} still being read.`;
  if (!p.evidence_sources.some((s) => s.status === 'success')) return 'Add some text or a readable document (text, CSV or PDF) first.';
  return 'The Portal cannot start Autofill for this application right now.';
}

/**
 * The AI mode and the Start button. A start quotes the preparation revision the person saw, with a fresh
 * Idempotency-Key per click; when the preparation changed meanwhile (412), it is read again and the
 * person is told what happened rather than the click failing silently.
 */
export function StartPanel({ applicationId, preparation, latestRun, canEdit, textDirty }: Props) {
  const update = useUpdatePreparation(applicationId);
  const starter = useStartAutofill(applicationId);
  const starting = starter.isPending;
  // The mode chosen and being saved: shown at once (set in the click, before the mutation's own state
  // catches up, so the controlled radio never snaps back); the preparation takes over when the save lands.
  const [chosenMode, setChosenMode] = useState<AiMode | null>(null);
  const [notice, setNotice] = useState<{ kind: 'error' | 'stale'; text: string } | null>(null);
  const [status, setStatus] = useState('');
  const why = blocker(preparation, latestRun, textDirty);

  async function chooseMode(mode: AiMode) {
    setNotice(null);
    setChosenMode(mode);
    try {
      // A 412 only means the preparation moved on; the choice still stands.
      const outcome = await update.mutateAsync({ changes: { ai_mode: mode }, stillApplies: () => true });
      setStatus(outcome.ok ? `Mode set to ${mode}.` : '');
    } catch (e) {
      setNotice({ kind: 'error', text: `The mode was not saved. ${messageOf(e)}` });
    } finally {
      setChosenMode((current) => (current === mode ? null : current));
    }
  }

  async function start() {
    if (starting || why) return;
    setNotice(null);
    setStatus('Starting Autofill…');
    try {
      const outcome = await starter.mutateAsync({ expected_preparation_revision: preparation.revision, ai_mode: chosenMode ?? preparation.ai_mode });
      if (outcome.kind === 'started') {
        setStatus('Autofill started.');
        return;
      }
      setStatus('');
      setNotice({
        kind: 'stale',
        text:
          'The preparation changed after you last saw it (a document finished reading, or someone else edited it), so Autofill did not start. ' +
          'It has been read again: check the text and documents, then press Start Autofill again.',
      });
    } catch (e) {
      setStatus('');
      setNotice({ kind: 'error', text: `Autofill did not start. ${messageOf(e)}` });
    }
  }

  return (
    <section className="autofill-panel" aria-labelledby="autofill-start-title">
      <h2 id="autofill-start-title">Start</h2>
      <fieldset className="autofill-modes" disabled={!canEdit}>
        <legend>Mode</legend>
        {MODES.map((m) => (
          <div key={m.value} className="option">
            <input
              type="radio"
              id={`autofill-mode-${m.value}`}
              name="autofill-mode"
              value={m.value}
              checked={(chosenMode ?? preparation.ai_mode) === m.value}
              aria-describedby={`autofill-mode-${m.value}-help`}
              onChange={() => void chooseMode(m.value)}
            />
            <label htmlFor={`autofill-mode-${m.value}`}>{m.label}</label>
            <span id={`autofill-mode-${m.value}-help`} className="muted">
              {' '}
              — {m.help}
            </span>
          </div>
        ))}
      </fieldset>
      {canEdit ? (
        <div className="actions">
          <button type="button" onClick={() => void start()} disabled={starting || why !== null} aria-describedby={why ? 'autofill-start-why' : undefined}>
            {starting ? 'Starting…' : 'Start Autofill'}
          </button>
          {why && (
            <p id="autofill-start-why" className="muted">
              {why}
            </p>
          )}
        </div>
      ) : (
        <p className="muted">You can follow Autofill here; staff and the client start it.</p>
      )}
      {notice && (
        <div className="notice warning" role="alert">
          <p>{notice.text}</p>
        </div>
      )}
      <p role="status" className="muted autofill-status">
        {status}
      </p>
    </section>
  );
}
