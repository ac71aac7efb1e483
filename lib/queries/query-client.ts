import { QueryClient } from '@tanstack/react-query';

/**
 * One QueryClient per server request and one in the browser. Reads are kept fresh for a while: the form
 * itself holds the live answers (autosave merges what others write), so a refetch on focus would only
 * fight with it.
 */
export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 60_000, refetchOnWindowFocus: false, retry: 1 },
      mutations: { retry: false },
    },
  });
}
