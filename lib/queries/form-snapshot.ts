import { queryOptions } from '@tanstack/react-query';
import { callApi } from '@/lib/api/client';
import { formApi } from '@/lib/api/endpoints';
import type { FormBase } from '@/lib/api/form-base';
import type { FormSnapshotView } from '@/lib/bff/form-snapshot';

export const formSnapshotKey = (apiBase: FormBase) => ['form-snapshot', apiBase] as const;

/** One read of everything the form opens with (live updates read it again to merge what others saved). */
export const readFormSnapshot = (apiBase: FormBase, signal?: AbortSignal, rest?: string): Promise<FormSnapshotView> =>
  callApi(formApi.form.GET, { params: { form: apiBase }, query: { rest }, signal });

/**
 * Everything the form opens with. Read once per visit: afterwards the form's own state is the truth and
 * autosave merges what others write, so the snapshot never goes stale in a way a refetch should fix.
 */
export const formSnapshotQuery = (apiBase: FormBase, rest?: string) =>
  queryOptions({
    queryKey: formSnapshotKey(apiBase),
    // The token is good once: a refetch or a retry after it was taken reads the form upstream again.
    queryFn: ({ signal }) => readFormSnapshot(apiBase, signal, rest),
    staleTime: Infinity,
    gcTime: 5 * 60_000,
  });
