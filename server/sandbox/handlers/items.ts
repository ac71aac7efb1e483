import {
  LIMITS,
  RepeatableItemCreateBody,
  RepeatableItemDeleteResult,
  RepeatableItemMutationResult,
  RepeatableItemPage,
  RepeatableItemUpdateBody,
  RepeatableItemsQuery,
  type RepeatableItem,
} from '@/lib/portal';
import { checkWrites, fileValues, itemAnswers } from '../domain/answers';
import type { FieldInfo, GroupInfo } from '../domain/contract-index';
import { itemAnswerKey } from '../domain/contract-index';
import type { RouteDef } from '../http/context';
import { SandboxError, notFound } from '../http/errors';
import { keysetPage, pageQuery } from '../http/paging';
import type { Sandbox } from '../sandbox';
import { newId, nextSeq } from '../store/ids';
import type { ApplicationRec, ItemRec } from '../store/types';
import { answersChanged, checkRevision } from './answers';
import { CLIENT_INTAKE, type ApplicationKindSpec } from './application-kinds';
import { belowApplication } from './application-routes';
import { answersEtag, answersReply } from './views';

function groupOf(sb: Sandbox, app: ApplicationRec, blockKey: string): GroupInfo {
  const g = sb.index(app).groups.get(blockKey);
  if (!g) throw notFound('repeatable group');
  return g;
}

function requireOperation(g: GroupInfo, op: 'list' | 'create' | 'update' | 'delete') {
  if (!g.group.item_operations.includes(op)) {
    throw new SandboxError('forbidden', `Items of ${g.group.block_key} do not allow ${op}.`, [
      { code: 'operation_not_allowed', message: `item_operations does not include ${op}.`, block_key: g.group.block_key },
    ]);
  }
}

const siblings = (app: ApplicationRec, blockKey: string, parent: string | null) =>
  Object.values(app.items)
    .filter((i) => i.block_key === blockKey && i.parent_item_id === parent)
    .sort((a, b) => a.seq - b.seq);

function itemView(sb: Sandbox, app: ApplicationRec, item: ItemRec, files = fileValues(app)): RepeatableItem {
  const order = siblings(app, item.block_key, item.parent_item_id).indexOf(item);
  return {
    object: 'repeatable_item',
    item_id: item.item_id,
    block_key: item.block_key,
    parent_item_id: item.parent_item_id,
    order,
    answers: itemAnswers(app, sb.index(app), item, files),
  };
}

function itemOf(app: ApplicationRec, g: GroupInfo, itemId: string) {
  const item = app.items[itemId];
  if (!item || item.block_key !== g.group.block_key) throw notFound('repeatable item');
  return item;
}

type ItemWrite = { block_key?: string; schema_key: string; field_key: string; value: unknown };

/**
 * Validates an item's writes (all or nothing); `itemId` names an existing item in error details. A write may
 * carry block_key (spec 2.10's full answer form), which must then be the item's group.
 */
function checkItemWrites(sb: Sandbox, app: ApplicationRec, g: GroupInfo, answers: ItemWrite[], itemId: string | undefined) {
  const foreign = answers.flatMap((a, i) =>
    a.block_key === undefined || a.block_key === g.group.block_key
      ? []
      : [
          {
            code: 'block_mismatch',
            message: `This item belongs to ${g.group.block_key}, not ${a.block_key}.`,
            parameter: `answers.${i}.block_key`,
            block_key: a.block_key,
            schema_key: a.schema_key,
            field_key: a.field_key,
            ...(itemId ? { item_id: itemId } : {}),
          },
        ],
  );
  if (foreign.length > 0) throw new SandboxError('validation_failed', 'An answer names another group than the item’s.', foreign);
  const writes = answers.map((a) => ({ ...a, block_key: g.group.block_key }));
  return checkWrites(sb.index(app), writes, (w) => g.byItemKey.get(itemAnswerKey(w.schema_key, w.field_key)), itemId);
}

/** Applies validated writes to an item; returns whether any value changed. */
function applyItemWrites(item: ItemRec, infos: FieldInfo[], answers: ItemWrite[]) {
  let changed = false;
  infos.forEach((info, i) => {
    const value = (answers[i]!.value ?? null) as ItemRec['answers'][string];
    if (JSON.stringify(item.answers[info.itemKey] ?? null) === JSON.stringify(value)) return;
    changed = true;
    if (value === null) delete item.answers[info.itemKey];
    else item.answers[info.itemKey] = value;
  });
  return changed;
}

/** Repeatable items of one kind of application. */
export function itemRoutesFor(spec: ApplicationKindSpec): RouteDef[] {
  const deal = spec.kind === 'deal';
  return belowApplication(spec, 'answers', [
    {
      // GET {segment}/{id}/repeatable-items/{block_key}/ – items of one group
      method: 'GET',
      path: 'repeatable-items/:block/',
      query: RepeatableItemsQuery,
      summary: deal ? 'List repeatable items of a deal application' : 'List repeatable items',
      response: RepeatableItemPage,
      handle: ({ sb, params, query }, app) => {
        const g = groupOf(sb, app, params.block!);
        requireOperation(g, 'list');
        const parent = query.parent_item_id as string | undefined;
        const all = Object.values(app.items)
          .filter((i) => i.block_key === g.group.block_key && (parent === undefined || i.parent_item_id === parent))
          .sort((a, b) => a.seq - b.seq);
        const page = keysetPage({
          sb,
          items: all,
          keyOf: (i) => i.seq,
          scope: `items:${app.id}:${g.group.block_key}:${parent ?? ''}`,
          ...pageQuery(query, LIMITS.answersPaging.default),
          backward: false,
        });
        const files = fileValues(app);
        return answersReply(app, { ...page, items: page.items.map((i) => itemView(sb, app, i, files)), answers_revision: app.answers_revision });
      },
    },
    {
      // POST {segment}/{id}/repeatable-items/{block_key}/ – add an item (within max_items)
      method: 'POST',
      path: 'repeatable-items/:block/',
      open: true,
      ifMatch: 'optional',
      idempotency: 'optional',
      summary: deal ? 'Create a repeatable item of a deal application' : 'Create a repeatable item',
      requestBody: RepeatableItemCreateBody,
      response: RepeatableItemMutationResult,
      successStatus: 201,
      handle: async (ctx, app) => {
        const { sb, params } = ctx;
        const g = groupOf(sb, app, params.block!);
        requireOperation(g, 'create');
        ctx.ifMatch(answersEtag(app));
        const body = await ctx.body(RepeatableItemCreateBody);
        if (body.block_key !== g.group.block_key) {
          throw new SandboxError('validation_failed', 'block_key must match the group in the path.', [
            { code: 'block_mismatch', message: `Expected ${g.group.block_key}.`, parameter: 'block_key' },
          ]);
        }
        const parentId = body.parent_item_id ?? null;
        const parentBlock = g.group.parent_block_key;
        if (parentBlock === null && parentId !== null) {
          throw new SandboxError('validation_failed', 'Items of a top-level group have no parent.', [
            { code: 'unexpected_parent', message: 'Leave parent_item_id out.', parameter: 'parent_item_id', block_key: g.group.block_key },
          ]);
        }
        if (parentBlock !== null) {
          const parent = parentId ? app.items[parentId] : undefined;
          if (!parent || parent.block_key !== parentBlock) {
            throw new SandboxError('validation_failed', `Items of ${g.group.block_key} belong to an item of ${parentBlock}.`, [
              { code: 'invalid_parent', message: `parent_item_id must name an item of ${parentBlock}.`, parameter: 'parent_item_id', block_key: g.group.block_key },
            ]);
          }
        }
        const count = siblings(app, g.group.block_key, parentId).length;
        if (g.group.max_items !== null && count >= g.group.max_items) {
          throw new SandboxError('validation_failed', `At most ${g.group.max_items} ${g.label.toLowerCase()} items are allowed.`, [
            { code: 'max_items', message: `The group already has ${count} items.`, block_key: g.group.block_key, ...(parentId ? { item_id: parentId } : {}) },
          ]);
        }
        // Validated before the item exists, so a refused create names no item that was never made.
        const writes = body.answers ?? [];
        const infos = checkItemWrites(sb, app, g, writes, undefined);
        const item: ItemRec = { item_id: newId(sb.state, 'repeatableItem'), block_key: g.group.block_key, parent_item_id: parentId, seq: nextSeq(sb.state), answers: {} };
        applyItemWrites(item, infos, writes);
        app.items[item.item_id] = item;
        answersChanged(sb, app);
        return answersReply(app, { item: itemView(sb, app, item), answers_revision: app.answers_revision }, 201);
      },
    },
    {
      // PATCH {segment}/{id}/repeatable-items/{block_key}/{item_id}/ – write an item's answers
      method: 'PATCH',
      path: 'repeatable-items/:block/:item/',
      open: true,
      ifMatch: 'required',
      summary: deal ? 'Update a repeatable item of a deal application' : 'Update a repeatable item',
      requestBody: RepeatableItemUpdateBody,
      response: RepeatableItemMutationResult,
      handle: async (ctx, app) => {
        const { sb, params } = ctx;
        const g = groupOf(sb, app, params.block!);
        requireOperation(g, 'update');
        const item = itemOf(app, g, params.item!);
        ctx.ifMatch(answersEtag(app));
        const body = await ctx.body(RepeatableItemUpdateBody);
        checkRevision(app, body.answers_revision);
        const infos = checkItemWrites(sb, app, g, body.answers, item.item_id);
        if (applyItemWrites(item, infos, body.answers)) answersChanged(sb, app);
        return answersReply(app, { item: itemView(sb, app, item), answers_revision: app.answers_revision });
      },
    },
    {
      // DELETE {segment}/{id}/repeatable-items/{block_key}/{item_id}/ – remove an item and its children
      method: 'DELETE',
      path: 'repeatable-items/:block/:item/',
      open: true,
      ifMatch: 'required',
      summary: deal ? 'Delete a repeatable item of a deal application' : 'Delete a repeatable item',
      response: RepeatableItemDeleteResult,
      handle: (ctx, app) => {
        const { sb, params } = ctx;
        const g = groupOf(sb, app, params.block!);
        requireOperation(g, 'delete');
        const item = itemOf(app, g, params.item!);
        ctx.ifMatch(answersEtag(app));
        const count = siblings(app, item.block_key, item.parent_item_id).length;
        if (g.group.min_items !== null && count <= g.group.min_items) {
          throw new SandboxError('validation_failed', `At least ${g.group.min_items} ${g.label.toLowerCase()} item${g.group.min_items === 1 ? ' is' : 's are'} required; change this item instead.`, [
            { code: 'min_items', message: `The group has ${count} items.`, block_key: g.group.block_key, item_id: item.item_id },
          ]);
        }
        // The item first, then its descendants depth first in creation order; their files go with them.
        const removed: string[] = [];
        const remove = (id: string) => {
          removed.push(id);
          const children = Object.values(app.items)
            .filter((i) => i.parent_item_id === id)
            .sort((a, b) => a.seq - b.seq);
          for (const child of children) remove(child.item_id);
        };
        remove(item.item_id);
        for (const id of removed) {
          delete app.items[id];
          for (const f of Object.values(app.files)) if (f.item_id === id) delete app.files[f.id];
        }
        answersChanged(sb, app);
        return answersReply(app, { deleted_item_ids: removed, answers_revision: app.answers_revision });
      },
    },
  ]);
}

export const itemRoutes: RouteDef[] = itemRoutesFor(CLIENT_INTAKE);
