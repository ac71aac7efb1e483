import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api/api-fetch';

/**
 * The query of one object the BFF sends wrapped (`{ deal: … }`): read at `path` as the reply type `R` (the
 * type `pick` takes), unwrapped by `pick`.
 */
export function objectQuery<const K extends readonly unknown[], R, T>(queryKey: K, path: string, pick: (reply: R) => T) {
  return queryOptions({
    queryKey,
    queryFn: ({ signal }) => apiFetch<R>(path, { signal }).then(pick),
  });
}
