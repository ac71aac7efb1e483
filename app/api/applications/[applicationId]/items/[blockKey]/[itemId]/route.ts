import { ItemUpdateBody } from '@/lib/bff/items';
import { deleteItem, updateItem, withCurrentItemsOnConflict } from '@/server/applications/items';
import { applicationLinks } from '@/server/applications/links';
import { ItemParams, byApplication } from '@/server/applications/route-params';
import { itemView } from '@/server/applications/views';
import { route } from '@/server/http/route';
import { etagHeader, requireIfMatch } from '@/server/http/params';

const auditItem = (operation: string) => ({
  operation,
  object: ({ params }: { params: ItemParams }) => ({ type: 'repeatable_item', id: params.itemId, applicationId: params.applicationId }),
});

// PATCH /api/applications/[applicationId]/items/[blockKey]/[itemId] – save an item's answers; a 412 comes back with the group's items
export const PATCH = route(
  { roles: ['staff', 'client'], params: ItemParams, body: ItemUpdateBody, application: byApplication, audit: auditItem('items.update') },
  async ({ params, body, req, upstream }) => {
    const ifMatch = requireIfMatch(req);
    const links = await applicationLinks(params.applicationId, req.signal);
    return withCurrentItemsOnConflict(links, params.blockKey, upstream, req.signal, async () => {
      const res = await updateItem(links, params.blockKey, params.itemId, body, ifMatch, req.signal);
      upstream.requestId = res.requestId;
      const etag = res.etag ?? '';
      return { body: { item: itemView(res.data.item), answers_revision: res.data.answers_revision, etag }, headers: etagHeader(etag) };
    });
  },
);

// DELETE /api/applications/[applicationId]/items/[blockKey]/[itemId] – remove an item and its nested items
export const DELETE = route(
  { roles: ['staff', 'client'], params: ItemParams, application: byApplication, audit: auditItem('items.delete') },
  async ({ params, req, upstream }) => {
    const ifMatch = requireIfMatch(req);
    const links = await applicationLinks(params.applicationId, req.signal);
    return withCurrentItemsOnConflict(links, params.blockKey, upstream, req.signal, async () => {
      const res = await deleteItem(links, params.blockKey, params.itemId, ifMatch, req.signal);
      upstream.requestId = res.requestId;
      const etag = res.etag ?? '';
      return { body: { deleted_item_ids: res.data.deleted_item_ids, answers_revision: res.data.answers_revision, etag }, headers: etagHeader(etag) };
    });
  },
);
