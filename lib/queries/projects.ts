import { infiniteQueryOptions, queryOptions, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { callApi } from '@/lib/api/client';
import { projectApi, projectMatchesApi, projectRunsApi, projectsApi, type MatchRunReply, type ProjectReply } from '@/lib/api/endpoints';
import type { MatchPageView, MatchRunView, MatchView } from '@/lib/bff/projects';
import type { Fit, ProductKind } from '@/lib/portal';
import { objectQuery } from './object-query';

/** Query factories of the funding pages (DESIGN.md §6): a business's projects, one project, its runs and matches. */

/** How often a run under way is read again for its progress (its end also comes live, over /api/events). */
export const RUN_POLL_MS = 500;

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

/** The project's newest run (or null); read again every RUN_POLL_MS while it is pending or running, so its bar moves. */
export const latestRunQuery = (projectId: string) =>
  queryOptions({
    queryKey: latestRunKey(projectId),
    queryFn: ({ signal }) =>
      callApi(projectRunsApi.GET, { params: { projectId }, query: { page_size: 1 }, signal }).then((p) => p.items[0] ?? null),
    staleTime: 0,
    refetchInterval: (q) => (q.state.data && !runFinished(q.state.data) ? RUN_POLL_MS : false),
  });

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
