import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { callApi } from '@/lib/api/client';
import { autofillApi } from '@/lib/api/endpoints';
import type { PreparationReply, SuggestionsPageView, PreparationView, RunView, SuggestionView } from '@/lib/bff/autofill';

/** How often a page looks again while the Portal is still working (files being read, a run under way). */
export const POLL_MS = 1_000;

export const fileSettled = (status: string | null) => status === 'success' || status === 'failed';
export const preparationSettled = (p: PreparationView) => p.evidence_sources.every((s) => fileSettled(s.status));
export const runFinished = (r: RunView) => r.status === 'completed' || r.status === 'failed';

const autofill = autofillApi;

export const preparationKey = (applicationId: string) => ['autofill-preparation', applicationId] as const;

/** The preparation with its ETag; polled while any evidence file is still pending or being read. */
export const preparationQuery = (applicationId: string) =>
  queryOptions({
    queryKey: preparationKey(applicationId),
    queryFn: ({ signal }) => callApi(autofill.preparation.GET, { params: { applicationId }, signal }),
    staleTime: 0,
    refetchInterval: (q) => (q.state.data && !preparationSettled(q.state.data.preparation) ? POLL_MS : false),
  });

/** The preparation as the page last read or wrote it (its ETag goes in the next write's If-Match). */
export const latestPreparation = (queryClient: QueryClient, applicationId: string) =>
  queryClient.getQueryData<PreparationReply>(preparationKey(applicationId));

/** Puts a preparation a write returned (or a 412 carried) in the cache. */
export async function putPreparation(queryClient: QueryClient, applicationId: string, reply: PreparationReply): Promise<void> {
  // A poll still under way began before this write: its older preparation must not land after it.
  await queryClient.cancelQueries({ queryKey: preparationKey(applicationId) });
  queryClient.setQueryData<PreparationReply>(preparationKey(applicationId), reply);
}

export const runsKey = (applicationId: string) => ['autofill-runs', applicationId] as const;

/** The newest runs (one page is plenty to choose from: runs of one application are few). */
export const runsQuery = (applicationId: string) =>
  queryOptions({
    queryKey: runsKey(applicationId),
    queryFn: ({ signal }) => callApi(autofill.runs.GET, { params: { applicationId }, query: { page_size: 20 }, signal }).then((p) => p.items),
    staleTime: 0,
  });

export const runKey = (applicationId: string, runId: string) => ['autofill-run', applicationId, runId] as const;

/** One run; polled while it is pending or running, so its progress bar moves. */
export const runQuery = (applicationId: string, runId: string) =>
  queryOptions({
    queryKey: runKey(applicationId, runId),
    queryFn: ({ signal }) => callApi(autofill.run.GET, { params: { applicationId, runId }, signal }).then((r) => r.run),
    staleTime: 0,
    refetchInterval: (q) => (q.state.data && !runFinished(q.state.data) ? POLL_MS : false),
  });

/** The lines of the text a completed run could not use. */
export const unusedTextQuery = (applicationId: string, runId: string) =>
  queryOptions({
    queryKey: ['autofill-unused-text', applicationId, runId] as const,
    queryFn: ({ signal }) => callApi(autofill.runUnusedText.GET, { params: { applicationId, runId }, signal }),
    staleTime: 0,
  });

export const suggestionsKey = (applicationId: string, runId: string) => ['autofill-suggestions', applicationId, runId] as const;

/** Every suggestion of a run, all pages, in the Portal's (contract) order. */
export const suggestionsQuery = (applicationId: string, runId: string) =>
  queryOptions({
    queryKey: suggestionsKey(applicationId, runId),
    queryFn: async ({ signal }) => {
      const items: SuggestionView[] = [];
      let cursor: string | null = null;
      do {
        const page: SuggestionsPageView = await callApi(autofill.runSuggestions.GET, { params: { applicationId, runId }, query: { page_size: 100, cursor }, signal });
        items.push(...page.items);
        cursor = page.next_cursor;
      } while (cursor);
      return items;
    },
    staleTime: 0,
  });

/** Puts a suggestion a decision returned in its run's list. */
export async function putSuggestion(queryClient: QueryClient, applicationId: string, runId: string, next: SuggestionView): Promise<void> {
  const key = suggestionsKey(applicationId, runId);
  // A read still under way began before this decision: its list would put the suggestion back.
  await queryClient.cancelQueries({ queryKey: key });
  queryClient.setQueryData<SuggestionView[]>(key, (list) => list?.map((s) => (s.id === next.id ? next : s)));
}
