'use client';

import { useQuery } from '@tanstack/react-query';
import { useCallback, useState, type ReactNode } from 'react';
import type { FormBase } from '@/lib/api/form-base';
import type { FormOpeningView } from '@/lib/forms/opening';
import { formSnapshotQuery } from '@/lib/queries/form-snapshot';
import { useRememberPlace } from '@/lib/queries/mutations/use-remember-place';
import { browserTimeZone } from '../ui/when';
import { IntakeForm } from './intake-form';
import { measured } from './timing';

interface Props {
  apiBase: FormBase;
  /**
   * What the server read for this render (JSON): the opening section and an index of the rest (the whole
   * snapshot is read here once the form is interactive). The page reads it before it answers: a form it
   * could not read is the page's 404 or error page, never a form left for the browser to read.
   */
  snapshotJson: string;
  canWrite: boolean;
  deviceKey: string;
  /** The invited client's application: each section they open is remembered, so their next visit reopens it. */
  placeOf?: string | null;
  /** Shown below the form, within it (IntakeForm's footer). */
  footer?: ReactNode;
  /** Where the person goes once they have submitted (IntakeForm's afterSubmit). */
  afterSubmit?: string;
  /** Reviewed before submit (IntakeForm's review). */
  review?: { applicationId: string; client: boolean };
}

/** Shows the form from the opening the server rendered, and reads the whole snapshot right after, which completes the form (FormRuntime.upgrade). */
export function IntakeFormPage({ apiBase, snapshotJson, canWrite, deviceKey, placeOf = null, footer, afterSubmit, review }: Props) {
  const [opening] = useState(() => measured('intake:snapshot-parse', () => JSON.parse(snapshotJson) as FormOpeningView));
  // A snapshot kept from an earlier visit in this tab is older than the opening: only a read made since counts.
  const [openedAt] = useState(() => Date.now());
  const full = useQuery({ ...formSnapshotQuery(apiBase, opening.opening.rest), refetchOnMount: 'always' });
  const fresh = full.dataUpdatedAt >= openedAt ? full.data : undefined;
  const { mutate: rememberPlace } = useRememberPlace(placeOf ?? '');
  const onSectionOpened = useCallback((key: string) => void (placeOf !== null && rememberPlace({ sectionKey: key, timeZone: browserTimeZone() })), [placeOf, rememberPlace]);
  return (
    <IntakeForm
      apiBase={apiBase}
      snapshot={opening}
      full={fresh}
      fullError={fresh === undefined ? full.error : null}
      onRetryFull={() => void full.refetch()}
      canWrite={canWrite}
      deviceKey={deviceKey}
      initialSection={opening.opening.sectionKey}
      onSectionOpened={placeOf === null ? undefined : onSectionOpened}
      footer={footer}
      afterSubmit={afterSubmit}
      review={review}
    />
  );
}
