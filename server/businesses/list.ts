import 'server-only';
import type { ListQuery } from '@/lib/bff/businesses';
import { BusinessPage } from '@/lib/portal';
import { portalRequest, routes } from '@/server/portal';
import { businessListView } from './business-views';

/** A page of businesses as the browser sees it (the API route and the businesses page share it). */
export async function listBusinesses(query: ListQuery) {
  const res = await portalRequest({ path: routes.businesses(), schema: BusinessPage, query });
  return businessListView(res.data);
}
