import { ItemUpdateBody } from '@/lib/bff/items';
import { itemView } from '@/server/applications/views';
import { deleteItem, updateItem, withCurrentItemsOnConflict } from '@/server/applications/items';
import { dealApplicationLinks } from '@/server/deal-applications/links';
import { DealItemParams } from '@/server/deal-applications/params';
import { route } from '@/server/http/route';
import { etagHeader, requireIfMatch } from '@/server/http/params';

const auditItem = (operation: string) => ({
  operation,
  object: ({ params }: { params: DealItemParams }) => ({ type: 'repeatable_item', id: params.itemId, applicationId: params.dealApplicationId }),
});

// PATCH /api/deal-applications/[dealApplicationId]/items/[blockKey]/[itemId] – save an item's answers (If-Match); a 412 comes back with the group's items
export const PATCH = route(
  { roles: ['staff'], params: DealItemParams, body: ItemUpdateBody, audit: auditItem('deal_application.item_update') },
  async ({ params, body, req, upstream }) => {
    const ifMatch = requireIfMatch(req);
    const links = await dealApplicationLinks(params.dealApplicationId, req.signal);
    return withCurrentItemsOnConflict(links, params.blockKey, upstream, req.signal, async () => {
      const res = await updateItem(links, params.blockKey, params.itemId, body, ifMatch, req.signal);
      upstream.requestId = res.requestId;
      const etag = res.etag ?? '';
      return { body: { item: itemView(res.data.item), answers_revision: res.data.answers_revision, etag }, headers: etagHeader(etag) };
    });
  },
);

// DELETE /api/deal-applications/[dealApplicationId]/items/[blockKey]/[itemId] – remove an item and its nested items (If-Match)
export const DELETE = route(
  { roles: ['staff'], params: DealItemParams, audit: auditItem('deal_application.item_delete') },
  async ({ params, req, upstream }) => {
    const ifMatch = requireIfMatch(req);
    const links = await dealApplicationLinks(params.dealApplicationId, req.signal);
    return withCurrentItemsOnConflict(links, params.blockKey, upstream, req.signal, async () => {
      const res = await deleteItem(links, params.blockKey, params.itemId, ifMatch, req.signal);
      upstream.requestId = res.requestId;
      const etag = res.etag ?? '';
      return { body: { deleted_item_ids: res.data.deleted_item_ids, answers_revision: res.data.answers_revision, etag }, headers: etagHeader(etag) };
    });
  },
);
