'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '@/lib/api/api-error';
import type { FormSnapshotView } from '@/lib/bff/form-snapshot';
import { formSnapshotQuery, type FormApiBase } from '@/lib/queries/form-snapshot';
import { IntakeForm } from './intake-form';
import { measured } from './timing';

interface Props {
  apiBase: FormApiBase;
  /** The snapshot the server read for this render (JSON), or null when the browser must read it. */
  snapshotJson: string | null;
  canWrite: boolean;
  deviceKey: string;
  initialSection: string | null;
}

/** Reads the form's snapshot (already in the cache when the server rendered the page) and shows the form. */
export function IntakeFormPage({ apiBase, snapshotJson, canWrite, deviceKey, initialSection }: Props) {
  const queryClient = useQueryClient();
  // Parsed once per page render and put in the cache, so a later visit in this tab starts from it too.
  const [initial] = useState(() => {
    if (snapshotJson === null) return undefined;
    const parsed = measured('intake:snapshot-parse', () => JSON.parse(snapshotJson) as FormSnapshotView);
    queryClient.setQueryData(formSnapshotQuery(apiBase).queryKey, parsed);
    return parsed;
  });
  const { data, error, isPending, refetch } = useQuery({ ...formSnapshotQuery(apiBase), initialData: initial });
  if (isPending) {
    return (
      <p role="status" className="loading">
        Loading the application…
      </p>
    );
  }
  if (error) {
    return (
      <div className="notice warning" role="alert">
        <p>
          The application could not be loaded: {error.message}
          {error instanceof ApiError && error.requestId ? ` (reference ${error.requestId})` : ''}
        </p>
        <button type="button" onClick={() => void refetch()}>
          Try again
        </button>
      </div>
    );
  }
  return <IntakeForm apiBase={apiBase} snapshot={data} canWrite={canWrite} deviceKey={deviceKey} initialSection={initialSection} />;
}
