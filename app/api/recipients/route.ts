import { ListQuery } from '@/lib/bff/businesses';
import { RecipientPage } from '@/lib/portal';
import { recipientListView } from '@/server/deals/deal-views';
import { route } from '@/server/http/route';
import { portalRequest, routes } from '@/server/portal';

// GET /api/recipients – a page of the organisations a deal can be made for (page_size, cursor)
export const GET = route({ roles: ['staff'], query: ListQuery }, async ({ query }) => {
  const res = await portalRequest({ path: routes.recipients(), schema: RecipientPage, query });
  return { body: recipientListView(res.data) };
});
