import 'server-only';
import type { DealListView, DealsQuery } from '@/lib/bff/deals';
import { DealPage, type Deal } from '@/lib/portal';
import { appDb } from '@/server/db/app-db';
import { isPortalError, portalCapabilities, portalRequest, routes } from '@/server/portal';
import { readDeal } from './read-deal';
import { dealListView } from './deal-views';

/** Deals of one business read one by one (the read model knows which they are); a business has a handful. */
const MAX_KNOWN_DEALS = 100;
const READS_AT_ONCE = 4;

/** Whether the Portal's deal list takes a business filter (DESIGN.md §5's completion; the spec shows none). */
export async function dealsFilterByBusiness(): Promise<boolean> {
  return (await portalCapabilities()).accepts('GET', routes.deals(), 'business_id');
}

/**
 * A page of deals as the browser sees it (the deals page reads it on the server). One business's deals come
 * from the Portal's filter where it has one; otherwise the read model names them (a deal does not name its
 * business: the BFF learns it when the deal is made here, or from the Portal's events) and each is read upstream,
 * all on one page.
 */
export async function listDeals(query: DealsQuery): Promise<{ view: DealListView; fromReadModel: boolean }> {
  const { business_id: businessId, ...paging } = query;
  if (!businessId || (await dealsFilterByBusiness())) {
    const res = await portalRequest({ path: routes.deals(), schema: DealPage, query });
    return { view: dealListView(res.data), fromReadModel: false };
  }
  if (paging.cursor) return { view: dealListView({ items: [], next_cursor: null, previous_cursor: null }), fromReadModel: true };
  const db = await appDb();
  const known = await db.query<{ id: string }>(
    'SELECT id FROM workspace_deals WHERE business_id = $1 ORDER BY created_at NULLS FIRST, id LIMIT $2',
    [businessId, MAX_KNOWN_DEALS],
  );
  const deals: Array<Deal | null> = new Array(known.length).fill(null);
  for (let i = 0; i < known.length; i += READS_AT_ONCE) {
    await Promise.all(
      known.slice(i, i + READS_AT_ONCE).map(async ({ id }, j) => {
        try {
          deals[i + j] = (await readDeal(id)).data;
        } catch (e) {
          // Gone from the Portal since the read model saw it: not listed.
          if (!(isPortalError(e) && e.status === 404)) throw e;
        }
      }),
    );
  }
  const view = dealListView({ items: deals.filter((d): d is Deal => d !== null), next_cursor: null, previous_cursor: null });
  return { view, fromReadModel: true };
}
