import 'server-only';
import { ItemCreateBody, ItemsQuery, ItemUpdateBody } from '@/lib/bff/items';
import { createItem, deleteItem, listItems, readAllItems, updateItem } from '@/server/applications/items';
import { itemView, itemsPageView } from '@/server/applications/views';
import { withConflictReply, type CurrentState } from '@/server/http/conflict-reply';
import { etagHeader, requireIfMatch } from '@/server/http/headers';
import { route } from '@/server/http/route';
import type { KindWithItems } from './kind';
import type { ApplicationLinks } from './links';
import { applicationIdOf, kindParams } from './params';

/** When someone else wrote first (412): the group's items as they are now, so the browser merges at once. */
const currentItems = (links: ApplicationLinks, blockKey: string, signal: AbortSignal) => async (): Promise<CurrentState> => {
  const current = await readAllItems(links, blockKey, signal);
  return { current, etag: current.etag || null };
};

/** GET …/items/[blockKey] (a page of a group's items) and POST (add one; If-Match optional). */
export function itemGroupRoutes<Id extends string>(kind: KindWithItems<Id>) {
  const params = kindParams(kind).itemGroup;
  const application = applicationIdOf(kind);

  const GET = route({ roles: kind.roles.read, params, query: ItemsQuery, application }, async ({ params, query, req, upstream }) => {
    const links = await kind.links.get(params[kind.idParam], req.signal);
    const res = await listItems(links, params.blockKey, query, req.signal);
    upstream.requestId = res.requestId;
    const etag = res.etag ?? '';
    return { body: itemsPageView(res.data, etag), headers: etagHeader(etag) };
  });

  const POST = route(
    {
      roles: kind.roles.write,
      params,
      body: ItemCreateBody,
      application,
      audit: {
        operation: kind.audit.items.create,
        object: ({ params }) => ({ type: 'repeatable_group', id: params.blockKey, applicationId: params[kind.idParam] }),
      },
    },
    async ({ params, body, req, upstream }) => {
      const ifMatch = req.headers.get('if-match') ?? undefined;
      // Optional upstream; when the browser sends one, a retry after a network failure cannot add the item twice.
      const idempotencyKey = req.headers.get('idempotency-key') ?? undefined;
      const links = await kind.links.get(params[kind.idParam], req.signal);
      return withConflictReply(
        upstream,
        async () => {
          const res = await createItem(links, params.blockKey, body, { ifMatch, idempotencyKey, signal: req.signal });
          upstream.requestId = res.requestId;
          const etag = res.etag ?? '';
          return { status: 201, body: { item: itemView(res.data.item), answers_revision: res.data.answers_revision, etag }, headers: etagHeader(etag) };
        },
        currentItems(links, params.blockKey, req.signal),
      );
    },
  );

  return { GET, POST };
}

/** PATCH …/items/[blockKey]/[itemId] (an item's answers) and DELETE (the item and its nested items), both with If-Match. */
export function itemRoutes<Id extends string>(kind: KindWithItems<Id>) {
  const params = kindParams(kind).item;
  const application = applicationIdOf(kind);
  const audit = (operation: string) => ({
    operation,
    object: ({ params }: { params: { [K in Id]: string } & { itemId: string } }) => ({
      type: 'repeatable_item',
      id: params.itemId,
      applicationId: params[kind.idParam],
    }),
  });

  const PATCH = route(
    { roles: kind.roles.write, params, body: ItemUpdateBody, application, audit: audit(kind.audit.items.update) },
    async ({ params, body, req, upstream }) => {
      const ifMatch = requireIfMatch(req);
      const links = await kind.links.get(params[kind.idParam], req.signal);
      return withConflictReply(
        upstream,
        async () => {
          const res = await updateItem(links, params.blockKey, params.itemId, body, ifMatch, req.signal);
          upstream.requestId = res.requestId;
          const etag = res.etag ?? '';
          return { body: { item: itemView(res.data.item), answers_revision: res.data.answers_revision, etag }, headers: etagHeader(etag) };
        },
        currentItems(links, params.blockKey, req.signal),
      );
    },
  );

  const DELETE = route({ roles: kind.roles.write, params, application, audit: audit(kind.audit.items.delete) }, async ({ params, req, upstream }) => {
    const ifMatch = requireIfMatch(req);
    const links = await kind.links.get(params[kind.idParam], req.signal);
    return withConflictReply(
      upstream,
      async () => {
        const res = await deleteItem(links, params.blockKey, params.itemId, ifMatch, req.signal);
        upstream.requestId = res.requestId;
        const etag = res.etag ?? '';
        return { body: { deleted_item_ids: res.data.deleted_item_ids, answers_revision: res.data.answers_revision, etag }, headers: etagHeader(etag) };
      },
      currentItems(links, params.blockKey, req.signal),
    );
  });

  return { PATCH, DELETE };
}
