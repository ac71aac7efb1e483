import { queryOptions } from '@tanstack/react-query';
import { callApi } from '@/lib/api/client';
import { formApi } from '@/lib/api/endpoints';
import type { FormBase } from '@/lib/api/form-base';

/** The newest changes of one question's answers (inside one repeatable item when itemId is set). */
export const questionHistoryQuery = (apiBase: FormBase, schemaKey: string, itemId: string | null) =>
  queryOptions({
    queryKey: ['answer-history', apiBase, schemaKey, itemId] as const,
    queryFn: ({ signal }) =>
      callApi(formApi.history.GET, { params: { form: apiBase }, query: { schema_key: schemaKey, item_id: itemId ?? undefined, limit: 20 }, signal }),
    // Read again each time it is opened: answers change while the form is open.
    staleTime: 0,
  });
