import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api/api-fetch';
import {
  PreparationReply,
  RunReply,
  RunsPageView,
  SuggestionsPageView,
  type PreparationView,
  type RunView,
  type SuggestionView,
} from '@/lib/bff/autofill';

/** `/api/applications/<id>/autofill`: where an application's Autofill routes live. */
export type AutofillApiBase = `/api/applications/${string}/autofill`;

export const autofillApiBase = (applicationId: string): AutofillApiBase => `/api/applications/${applicationId}/autofill`;

/** How often a page looks again while the Portal is still working (files being read, a run under way). */
export const POLL_MS = 1_000;

export const fileSettled = (status: string | null) => status === 'success' || status === 'failed';
export const preparationSettled = (p: PreparationView) => p.evidence_sources.every((s) => fileSettled(s.status));
export const runFinished = (r: RunView) => r.status === 'completed' || r.status === 'failed';

export const preparationKey = (base: AutofillApiBase) => ['autofill-preparation', base] as const;

/** The preparation with its ETag; polled while any evidence file is still pending or being read. */
export const preparationQuery = (base: AutofillApiBase) =>
  queryOptions({
    queryKey: preparationKey(base),
    queryFn: ({ signal }) => apiFetch(`${base}/preparation`, { schema: PreparationReply, signal }),
    staleTime: 0,
    refetchInterval: (q) => (q.state.data && !preparationSettled(q.state.data.preparation) ? POLL_MS : false),
  });

export const runsKey = (base: AutofillApiBase) => ['autofill-runs', base] as const;

/** The newest runs (one page is plenty to choose from: runs of one application are few). */
export const runsQuery = (base: AutofillApiBase) =>
  queryOptions({
    queryKey: runsKey(base),
    queryFn: ({ signal }) => apiFetch(`${base}/runs?page_size=20`, { schema: RunsPageView, signal }).then((p) => p.items),
    staleTime: 0,
  });

export const runKey = (base: AutofillApiBase, runId: string) => ['autofill-run', base, runId] as const;

/** One run; polled while it is pending or running, so its progress bar moves. */
export const runQuery = (base: AutofillApiBase, runId: string) =>
  queryOptions({
    queryKey: runKey(base, runId),
    queryFn: ({ signal }) => apiFetch(`${base}/runs/${encodeURIComponent(runId)}`, { schema: RunReply, signal }).then((r) => r.run),
    staleTime: 0,
    refetchInterval: (q) => (q.state.data && !runFinished(q.state.data) ? POLL_MS : false),
  });

export const suggestionsKey = (base: AutofillApiBase, runId: string) => ['autofill-suggestions', base, runId] as const;

/** Every suggestion of a run, all pages, in the Portal's (contract) order. */
export const suggestionsQuery = (base: AutofillApiBase, runId: string) =>
  queryOptions({
    queryKey: suggestionsKey(base, runId),
    queryFn: async ({ signal }) => {
      const items: SuggestionView[] = [];
      let cursor: string | null = null;
      do {
        const q = new URLSearchParams({ page_size: '100' });
        if (cursor) q.set('cursor', cursor);
        const page: SuggestionsPageView = await apiFetch(`${base}/runs/${encodeURIComponent(runId)}/suggestions?${q}`, {
          schema: SuggestionsPageView,
          signal,
        });
        items.push(...page.items);
        cursor = page.next_cursor;
      } while (cursor);
      return items;
    },
    staleTime: 0,
  });
