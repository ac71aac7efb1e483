import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '@/lib/api/api-fetch';

/**
 * The query of one object the BFF sends wrapped (`{ deal: … }`): read at `path`, checked with the reply's
 * schema, unwrapped by `pick`.
 */
export function objectQuery<const K extends readonly unknown[], R, T>(queryKey: K, path: string, reply: z.ZodType<R>, pick: (reply: R) => T) {
  return queryOptions({
    queryKey,
    queryFn: ({ signal }) => apiFetch(path, { schema: reply, signal }).then(pick),
  });
}
