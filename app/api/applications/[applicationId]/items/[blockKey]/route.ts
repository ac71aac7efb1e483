import { ItemCreateBody, ItemsQuery } from '@/lib/bff/items';
import { createItem, listItems, withCurrentItemsOnConflict } from '@/server/applications/items';
import { applicationLinks } from '@/server/applications/links';
import { ItemGroupParams, byApplication } from '@/server/applications/route-params';
import { itemView, itemsPageView } from '@/server/applications/views';
import { route } from '@/server/http/route';
import { etagHeader } from '@/server/http/params';

// GET /api/applications/[applicationId]/items/[blockKey] – a page of a repeatable group's items (parent_item_id, cursor, page_size)
export const GET = route(
  { roles: ['staff', 'reviewer', 'client'], params: ItemGroupParams, query: ItemsQuery, application: byApplication },
  async ({ params, query, req, upstream }) => {
    const links = await applicationLinks(params.applicationId, req.signal);
    const res = await listItems(links, params.blockKey, query, req.signal);
    upstream.requestId = res.requestId;
    const etag = res.etag ?? '';
    return { body: itemsPageView(res.data, etag), headers: etagHeader(etag) };
  },
);

// POST /api/applications/[applicationId]/items/[blockKey] – add an item (If-Match optional; a 412 comes back with the group's items)
export const POST = route(
  {
    roles: ['staff', 'client'],
    params: ItemGroupParams,
    body: ItemCreateBody,
    application: byApplication,
    audit: { operation: 'items.create', object: ({ params }) => ({ type: 'repeatable_group', id: params.blockKey, applicationId: params.applicationId }) },
  },
  async ({ params, body, req, upstream }) => {
    const ifMatch = req.headers.get('if-match') ?? undefined;
    // Optional upstream; when the browser sends one, a retry after a network failure cannot add the item twice.
    const idempotencyKey = req.headers.get('idempotency-key') ?? undefined;
    const links = await applicationLinks(params.applicationId, req.signal);
    return withCurrentItemsOnConflict(links, params.blockKey, upstream, req.signal, async () => {
      const res = await createItem(links, params.blockKey, body, { ifMatch, idempotencyKey, signal: req.signal });
      upstream.requestId = res.requestId;
      const etag = res.etag ?? '';
      return { status: 201, body: { item: itemView(res.data.item), answers_revision: res.data.answers_revision, etag }, headers: etagHeader(etag) };
    });
  },
);
