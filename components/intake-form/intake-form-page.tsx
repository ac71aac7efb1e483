'use client';

import { useQuery } from '@tanstack/react-query';
import { ApiError } from '@/lib/api/api-error';
import { formSnapshotQuery, type FormApiBase } from '@/lib/queries/form-snapshot';
import { IntakeForm } from './intake-form';

interface Props {
  apiBase: FormApiBase;
  canWrite: boolean;
  deviceKey: string;
  initialSection: string | null;
}

/** Reads the form's snapshot (already in the cache when the server rendered the page) and shows the form. */
export function IntakeFormPage({ apiBase, canWrite, deviceKey, initialSection }: Props) {
  const { data, error, isPending, refetch } = useQuery(formSnapshotQuery(apiBase));
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
