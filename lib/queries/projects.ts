import { infiniteQueryOptions, queryOptions, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { callApi } from '@/lib/api/client';
import { projectApi, projectMatchesApi, projectRunsApi, projectsApi, type MatchRunReply, type ProjectReply } from '@/lib/api/endpoints';
import type { MatchPageView, MatchRunView, MatchView } from '@/lib/bff/projects';
import type { RunProgressView } from '@/lib/bff/live-events';
import type { Fit, ProductKind } from '@/lib/portal';
// Without zod: this module reaches the browser.
import { MATCH_RUN_STATUSES } from '@/lib/portal/funding-values';
import { objectQuery } from './object-query';

/** Query factories of the funding pages (DESIGN.md §6): a business's projects, one project, its runs and matches. */

/*
 * A run under way moves by its live events (`match_run.progress` at most once a second, then its end), not
 * by reading it. Only while live updates are down is it read every RUN_FALLBACK_POLL_MS; and when the stream
 * is open but nothing was heard of a working run for RUN_SILENCE_MS (events lost, or the Portal sends none),
 * it is read once more.
 */
export const RUN_FALLBACK_POLL_MS = 1_000;
export const RUN_SILENCE_MS = 10_000;

export type { ProjectReply };
export type RunReply = MatchRunReply;

export const projectsKey = (businessId: string) => ['projects', businessId] as const;

/** A business's projects with their best fit (a business has a handful: one page of 100). */
export const projectsQuery = (businessId: string) =>
  queryOptions({
    queryKey: projectsKey(businessId),
    queryFn: ({ signal }) => callApi(projectsApi.GET, { query: { business_id: businessId, page_size: 100 }, signal }).then((p) => p.items),
  });

export const projectKey = (projectId: string) => ['project', projectId] as const;
export const projectQuery = (projectId: string) => objectQuery(projectKey(projectId), projectApi.GET, { projectId }, (r) => r.project);

export const runFinished = (r: MatchRunView) => r.status === 'completed' || r.status === 'failed';

export const latestRunKey = (projectId: string) => ['match-run-latest', projectId] as const;
/** The mutation that starts a run of the project: while it is pending, its reply is the run to show. */
export const startRunKey = (projectId: string) => ['match-run-start', projectId] as const;

/** The project's newest run (or null); with `poll` (live updates down) read again every RUN_FALLBACK_POLL_MS while it works. */
export const latestRunQuery = (projectId: string, poll: boolean) =>
  queryOptions({
    queryKey: latestRunKey(projectId),
    queryFn: ({ signal }) =>
      callApi(projectRunsApi.GET, { params: { projectId }, query: { page_size: 1 }, signal }).then((p) => p.items[0] ?? null),
    staleTime: 0,
    refetchInterval: (q) => (poll && q.state.data && !runFinished(q.state.data) ? RUN_FALLBACK_POLL_MS : false),
  });

const isRunStatus = (s: string): s is MatchRunView['status'] => (MATCH_RUN_STATUSES as readonly string[]).includes(s);

/**
 * Puts a live `match_run.progress` into the run shown. False when the event is about a run the page does not
 * show (started elsewhere): the caller reads the latest run then. An older attempt's event, or one overtaken by
 * a later one (deliveries are not ordered), changes nothing.
 */
export function putRunProgress(queryClient: QueryClient, projectId: string, p: RunProgressView): boolean {
  const shown = queryClient.getQueryData<MatchRunView | null>(latestRunKey(projectId));
  if (!shown || shown.id !== p.run_id || !isRunStatus(p.status)) return false;
  const sameAttempt = p.attempt_sequence === shown.attempt_sequence;
  if (p.attempt_sequence < shown.attempt_sequence) return true;
  if (sameAttempt && (runFinished(shown) || p.completed_units < shown.progress.completed_units)) return true;
  queryClient.setQueryData<MatchRunView>(latestRunKey(projectId), {
    ...shown,
    status: p.status,
    attempt_sequence: p.attempt_sequence,
    progress: { step: p.step, completed_units: p.completed_units, total_units: p.total_units },
    can_retry: false,
    failure: null,
  });
  return true;
}

/**
 * Shows the run a start's reply gives, unless live events that overtook the reply already show that run
 * further on (or finished): the reply is the run as it was when it started.
 */
export function putStartedRun(queryClient: QueryClient, projectId: string, started: MatchRunView): void {
  queryClient.setQueryData<MatchRunView | null>(latestRunKey(projectId), (shown) => {
    if (!shown || shown.id !== started.id || shown.attempt_sequence !== started.attempt_sequence) return started;
    const ahead = runFinished(shown) || shown.progress.completed_units > started.progress.completed_units;
    return ahead ? shown : started;
  });
}

export interface MatchFilters {
  fit: Fit | null;
  product_kind: ProductKind | null;
}

export const matchesKey = (projectId: string) => ['matches', projectId] as const;

/** Funders shown at first, and added by each "Show more": a run over a thousand funders ranks thousands of products. */
export const MATCH_PAGE_SIZE = 25;

/** The matches of the latest completed run that pass the filters, best first, a page at a time. */
export const matchesQuery = (projectId: string, filters: MatchFilters) =>
  infiniteQueryOptions({
    queryKey: [...matchesKey(projectId), filters.fit, filters.product_kind] as const,
    queryFn: ({ pageParam, signal }) =>
      callApi(projectMatchesApi.GET, {
        params: { projectId },
        query: { page_size: MATCH_PAGE_SIZE, cursor: pageParam, fit: filters.fit, product_kind: filters.product_kind },
        signal,
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    staleTime: 0,
  });

/** Puts a match a decision returned (or a 412 carried) into every filtered list that holds it. */
export async function putMatch(queryClient: QueryClient, projectId: string, next: MatchView) {
  await queryClient.cancelQueries({ queryKey: matchesKey(projectId) });
  queryClient.setQueriesData<InfiniteData<MatchPageView>>({ queryKey: matchesKey(projectId) }, (data) =>
    data ? { ...data, pages: data.pages.map((p) => ({ ...p, items: p.items.map((m) => (m.id === next.id ? next : m)) })) } : data,
  );
}
