import { queryOptions } from '@tanstack/react-query';
import { callApi } from '@/lib/api/client';
import type { Endpoint, ParamsOf, ReplyOf } from '@/lib/api/endpoint';

/** The query of one object the BFF sends wrapped (`{ deal: … }`): read from the endpoint, unwrapped by `pick`. */
export function objectQuery<const K extends readonly unknown[], E extends Endpoint<'GET'>, T>(
  queryKey: K,
  e: E,
  params: ParamsOf<E>,
  pick: (reply: ReplyOf<E>) => T,
) {
  return queryOptions({
    queryKey,
    queryFn: ({ signal }) => (callApi as (e: Endpoint, input: object) => Promise<ReplyOf<E>>)(e, { params, signal }).then(pick),
  });
}
