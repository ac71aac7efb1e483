'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { preparationQuery, runsQuery } from '@/lib/queries/autofill';
import { LoadError } from '../ui/load-state';
import { messageOf } from './errors';
import { EvidencePanel } from './evidence-panel';
import { RunPanel } from './run-panel';
import { StartPanel } from './start-panel';
import { TextPanel } from './text-panel';
import './autofill.css';

interface Props {
  applicationId: string;
  /** Staff and the invited client prepare and start; reviewers only follow. */
  canEdit: boolean;
  /** Staff and reviewers review suggestions. */
  canReview: boolean;
}

/** Autofill preparation: the text and documents Autofill reads, the mode, Start, and the newest run. */
export function PreparationPage({ applicationId, canEdit, canReview }: Props) {
  const prep = useQuery(preparationQuery(applicationId));
  const runs = useQuery(runsQuery(applicationId));
  const [textDirty, setTextDirty] = useState(false);
  const latestRun = runs.data?.[0] ?? null;

  return (
    <div className="autofill-page">
      <h1>Autofill</h1>
      <nav aria-label="Application" className="autofill-links">
        <Link href={`/applications/${applicationId}`}>Application form</Link>
        {canReview && <Link href={`/applications/${applicationId}/review`}>Review suggestions</Link>}
      </nav>
      <p className="muted">
        Autofill reads the text and documents below and suggests answers for the application. Nothing is written until a
        reviewer accepts a suggestion.
      </p>
      {prep.isPending ? (
        <p role="status" className="loading">
          Loading the preparation…
        </p>
      ) : prep.error ? (
        <LoadError onRetry={() => void prep.refetch()}>The preparation could not be loaded. {messageOf(prep.error)}</LoadError>
      ) : (
        <>
          <TextPanel applicationId={applicationId} preparation={prep.data.preparation} canEdit={canEdit} onDirtyChange={setTextDirty} />
          <EvidencePanel applicationId={applicationId} preparation={prep.data.preparation} canEdit={canEdit} />
          <StartPanel applicationId={applicationId} preparation={prep.data.preparation} latestRun={latestRun} canEdit={canEdit} textDirty={textDirty} />
        </>
      )}
      {runs.error && <LoadError onRetry={() => void runs.refetch()}>The runs could not be loaded. {messageOf(runs.error)}</LoadError>}
      {latestRun && <RunPanel key={latestRun.id} applicationId={applicationId} run={latestRun} canEdit={canEdit} canReview={canReview} />}
    </div>
  );
}
