import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api/api-fetch';
import { FormSnapshotView } from '@/lib/bff/form-snapshot';

/** Where an application's routes live: intake applications and deal applications share the form. */
export type FormApiBase = `/api/applications/${string}` | `/api/deal-applications/${string}`;

export const formSnapshotKey = (apiBase: FormApiBase) => ['form-snapshot', apiBase] as const;

/**
 * Everything the form opens with. Read once per visit: afterwards the form's own state is the truth and
 * autosave merges what others write, so the snapshot never goes stale in a way a refetch should fix.
 */
export const formSnapshotQuery = (apiBase: FormApiBase) =>
  queryOptions({
    queryKey: formSnapshotKey(apiBase),
    queryFn: ({ signal }) => apiFetch(`${apiBase}/form`, { schema: FormSnapshotView, signal }),
    staleTime: Infinity,
    gcTime: 5 * 60_000,
  });
