import 'server-only';
import { BusinessId } from '@/lib/portal';
import { readBusinessStatus } from '@/server/businesses/status';
import { isPortalError } from '@/server/portal';
import { appDb } from '@/server/db/app-db';
import { dealsFilterByBusiness, listDeals } from './list';

// A business has a handful of deals; the bound only stops a misbehaving upstream from looping us forever.
const MAX_PAGES = 20;

/** The business a page names, by id and name; null when it does not exist. */
export async function readBusinessName(businessId: string): Promise<{ id: string; name: string | null } | null> {
  if (!BusinessId.safeParse(businessId).success) return null;
  try {
    const res = await readBusinessStatus(businessId);
    return { id: res.data.business.id, name: res.data.business.name };
  } catch (e) {
    if (isPortalError(e) && e.status === 404) return null;
    throw e;
  }
}

/**
 * A deal names no business (spec 2.14): the business a link claims is shown only once that business's deals
 * include this deal (the Portal's filter where it has one, else the read model's), so a wrong or stale link
 * shows none.
 */
export async function businessOfDeal(dealId: string, businessId: string) {
  if (!BusinessId.safeParse(businessId).success) return null;
  if (!(await dealsFilterByBusiness())) {
    const row = await (await appDb()).one<{ business_id: string | null }>('SELECT business_id FROM workspace_deals WHERE id = $1', [dealId]);
    return row?.business_id === businessId ? readBusinessName(businessId) : null;
  }
  let cursor: string | undefined;
  for (let n = 0; n < MAX_PAGES; n++) {
    const { view } = await listDeals({ business_id: businessId, page_size: 100, ...(cursor ? { cursor } : {}) });
    if (view.items.some((d) => d.id === dealId)) return readBusinessName(businessId);
    if (!view.next_cursor) return null;
    cursor = view.next_cursor;
  }
  return null;
}
