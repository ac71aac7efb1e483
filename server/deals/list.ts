import 'server-only';
import type { DealsQuery } from '@/lib/bff/deals';
import { DealPage } from '@/lib/portal';
import { portalRequest, routes } from '@/server/portal';
import { dealListView } from './deal-views';

/** A page of deals as the browser sees it (the deals page reads it on the server). */
export async function listDeals(query: DealsQuery) {
  const res = await portalRequest({ path: routes.deals(), schema: DealPage, query });
  return dealListView(res.data);
}
