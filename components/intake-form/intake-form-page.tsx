'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { ApiError, referencedMessage } from '@/lib/api/api-error';
import type { FormSnapshotView } from '@/lib/bff/form-snapshot';
import type { FormApiBase } from '@/lib/api/paths';
import { formSnapshotQuery } from '@/lib/queries/form-snapshot';
import { useRememberPlace } from '@/lib/queries/mutations/use-remember-place';
import { LoadError } from '../ui/load-state';
import { IntakeForm } from './intake-form';
import { measured } from './timing';

interface Props {
  apiBase: FormApiBase;
  /** The snapshot the server read for this render (JSON), or null when the browser must read it. */
  snapshotJson: string | null;
  canWrite: boolean;
  deviceKey: string;
  initialSection: string | null;
  /** The invited client's application: each section they open is remembered, so their next visit reopens it. */
  placeOf?: string | null;
}

/** Reads the form's snapshot (already in the cache when the server rendered the page) and shows the form. */
export function IntakeFormPage({ apiBase, snapshotJson, canWrite, deviceKey, initialSection, placeOf = null }: Props) {
  const queryClient = useQueryClient();
  // Parsed once per page render and put in the cache, so a later visit in this tab starts from it too.
  const [initial] = useState(() => {
    if (snapshotJson === null) return undefined;
    const parsed = measured('intake:snapshot-parse', () => JSON.parse(snapshotJson) as FormSnapshotView);
    queryClient.setQueryData(formSnapshotQuery(apiBase).queryKey, parsed);
    return parsed;
  });
  const { data, error, isPending, refetch } = useQuery({ ...formSnapshotQuery(apiBase), initialData: initial });
  const { mutate: rememberPlace } = useRememberPlace(placeOf ?? '');
  const onSectionOpened = useCallback((key: string) => void (placeOf !== null && rememberPlace(key)), [placeOf, rememberPlace]);
  if (isPending) {
    return (
      <p role="status" className="loading">
        Loading the application…
      </p>
    );
  }
  if (error) {
    return (
      <LoadError onRetry={() => void refetch()}>
        The application could not be loaded: {error instanceof ApiError ? referencedMessage(error) : error.message}
      </LoadError>
    );
  }
  return (
    <IntakeForm
      apiBase={apiBase}
      snapshot={data}
      canWrite={canWrite}
      deviceKey={deviceKey}
      initialSection={initialSection}
      onSectionOpened={placeOf === null ? undefined : onSectionOpened}
    />
  );
}
