import 'server-only';
import { formApi } from '@/lib/api/endpoints';
import { ItemCreateBody, ItemsQuery, ItemUpdateBody } from '@/lib/bff/items';
import { createItem, deleteItem, listItems, readAllItems, updateItem } from './items';
import { itemView, itemsPageView } from './application-views';
import { withConflictReply, type CurrentState } from '@/server/http/conflict-reply';
import { etagHeader, requireIfMatch } from '@/server/http/headers';
import { answerSetEtag } from '@/server/applications/answers-etag';
import type { RouteResult } from '@/server/http/route';
import type { KindWithItems } from './kind';
import { kindRoute } from './kind-route';
import type { ApplicationLinks } from './kind-links';
import { kindParams } from './kind-params';
import { recordAnswersWritten } from '@/server/read-model/record';
import { fieldValuesOf } from '@/server/history/answer-reads';
import { noteAnswersWritten } from '@/server/history/history-recorder';
import type { RepeatableItem } from '@/lib/portal';

type Links = Pick<ApplicationLinks, 'repeatableItems'>;

/**
 * An item write quoting the answers ETag (optional for a create). When someone else wrote first (412), the
 * reply carries the group's items as they are now, so the browser merges at once.
 */
function itemWrite<R>(links: Links, blockKey: string, write: () => Promise<RouteResult<R>>) {
  const current = async (): Promise<CurrentState> => {
    const items = await readAllItems(links, blockKey);
    return { current: items, etag: items.etag || null };
  };
  return withConflictReply(write, current);
}

/** The values an item write set, as the Portal stored them (the item's answers the body named). */
function writtenValues(item: RepeatableItem, written: readonly { schema_key: string; field_key: string }[]) {
  const named = new Set(written.map((w) => `${w.schema_key}\u0000${w.field_key}`));
  return fieldValuesOf(item.answers.filter((a) => named.has(`${a.schema_key}\u0000${a.field_key}`)), item.item_id);
}

/** GET …/items/[blockKey] (a page of a group's items) and POST (add one; If-Match optional). */
export function itemGroupRoutes<Id extends string>(kind: KindWithItems<Id>) {
  const params = kindParams(kind).itemGroup;

  const GET = kindRoute(kind, formApi.itemGroup.GET, { roles: kind.roles.read, params, query: ItemsQuery }, async ({ links, params, query }) => {
    const res = await listItems(await links(), params.blockKey, query);
    const etag = answerSetEtag(res.etag, res.data.answers_revision);
    return { body: itemsPageView(res.data, etag), headers: etagHeader(etag) };
  });

  const POST = kindRoute(
    kind,
    formApi.itemGroup.POST,
    {
      roles: kind.roles.write,
      params,
      body: ItemCreateBody,
      audit: { operation: kind.audit.items.create, object: ({ params }) => ({ type: 'repeatable_group', id: params.blockKey, applicationId: params[kind.idParam] }) },
    },
    async ({ id, db, links, params: { blockKey }, body, req }) => {
      const ifMatch = req.headers.get('if-match') ?? undefined;
      // Optional upstream; when the browser sends one, a retry after a network failure cannot add the item twice.
      const idempotencyKey = req.headers.get('idempotency-key') ?? undefined;
      const at = await links();
      return itemWrite(at, blockKey, async () => {
        const res = await createItem(at, blockKey, body, { ifMatch, idempotencyKey });
        recordAnswersWritten(db, id, res.data.answers_revision);
        noteAnswersWritten(db, id, res.data.answers_revision, writtenValues(res.data.item, body.answers ?? []));
        const etag = answerSetEtag(res.etag, res.data.answers_revision);
        return { status: 201, body: { item: itemView(res.data.item), answers_revision: res.data.answers_revision, etag }, headers: etagHeader(etag) };
      });
    },
  );

  return { GET, POST };
}

/** PATCH …/items/[blockKey]/[itemId] (an item's answers) and DELETE (the item and its nested items), both with If-Match. */
export function itemRoutes<Id extends string>(kind: KindWithItems<Id>) {
  const params = kindParams(kind).item;
  const audit = (operation: string) => ({
    operation,
    object: ({ params }: { params: { [K in Id]: string } & { itemId: string } }) => ({ type: 'repeatable_item', id: params.itemId, applicationId: params[kind.idParam] }),
  });

  const PATCH = kindRoute(
    kind,
    formApi.item.PATCH,
    { roles: kind.roles.write, params, body: ItemUpdateBody, audit: audit(kind.audit.items.update) },
    async ({ id, db, links, params: { blockKey, itemId }, body, req }) => {
      const ifMatch = requireIfMatch(req);
      const at = await links();
      return itemWrite(at, blockKey, async () => {
        const res = await updateItem(at, blockKey, itemId, body, ifMatch);
        recordAnswersWritten(db, id, res.data.answers_revision);
        noteAnswersWritten(db, id, res.data.answers_revision, writtenValues(res.data.item, body.answers));
        const etag = answerSetEtag(res.etag, res.data.answers_revision);
        return { body: { item: itemView(res.data.item), answers_revision: res.data.answers_revision, etag }, headers: etagHeader(etag) };
      });
    },
  );

  const DELETE = kindRoute(
    kind,
    formApi.item.DELETE,
    { roles: kind.roles.write, params, audit: audit(kind.audit.items.delete) },
    async ({ id, db, links, params: { blockKey, itemId }, req }) => {
      const ifMatch = requireIfMatch(req);
      const at = await links();
      return itemWrite(at, blockKey, async () => {
        const res = await deleteItem(at, blockKey, itemId, ifMatch);
        recordAnswersWritten(db, id, res.data.answers_revision);
        const etag = answerSetEtag(res.etag, res.data.answers_revision);
        return { body: { deleted_item_ids: res.data.deleted_item_ids, answers_revision: res.data.answers_revision, etag }, headers: etagHeader(etag) };
      });
    },
  );

  return { PATCH, DELETE };
}
