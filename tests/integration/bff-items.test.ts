import { describe, expect, it } from 'vitest';
import { BffErrorBody } from '@/lib/bff/errors';
import { CurrentItems, ItemDeleteResult, ItemsPageView, ItemWriteResult } from '@/lib/bff/items';
import { listAudit } from '@/server/audit';
import type { RunningSandbox } from '@/server/sandbox/server';
import { freshApplication } from './support/applications';
import { BffClient, bffDb, bffStack, clientSessionFor, signedIn } from './support/bff';
import { KEYS, SandboxClient } from './support/sandbox';

/** The stack's sandbox, called directly with the demo key: each test makes its own business. */
const portal = () => new SandboxClient({ baseUrl: bffStack().sandboxBaseUrl } as RunningSandbox, KEYS.full);
const newApp = () => freshApplication(portal(), 'BFF Items Test Ltd');

const itemsOf = (appId: string, blockKey: string) => `/api/applications/${appId}/items/${blockKey}`;
const answer = (schema_key: string, value: unknown, field_key = 'value') => ({ schema_key, field_key, value });
const valueOf = (item: { answers: Array<{ schema_key: string; field_key: string; value: unknown }> }, schemaKey: string, fieldKey = 'value') =>
  item.answers.find((a) => a.schema_key === schemaKey && a.field_key === fieldKey)?.value;

const errorOf = (r: { body: unknown }) => BffErrorBody.parse(r.body).error;

describe('repeatable items through the BFF', () => {
  it('lists, creates (nested too), updates and deletes items, with the answers ETag and no Portal URL', async () => {
    const appId = await newApp();
    const { client } = await signedIn('staff');
    const empty = await client.get(itemsOf(appId, 'owners'));
    expect(empty.status).toBe(200);
    expect(empty.headers.get('cache-control')).toBe('private, no-store');
    const page0 = ItemsPageView.parse(empty.body);
    expect(page0).toMatchObject({ items: [], next_cursor: null, answers_revision: 0 });
    expect(empty.headers.get('etag')).toBe(page0.etag);

    // If-Match is optional on create; when sent it is passed through.
    const created = await client.post(itemsOf(appId, 'owners'), { ifMatch: page0.etag, body: { answers: [answer('owner_full_name', 'Alex Morgan')] } });
    expect(created.status).toBe(201);
    const owner = ItemWriteResult.parse(created.body);
    expect(owner.item).toMatchObject({ block_key: 'owners', parent_item_id: null, order: 0 });
    expect(owner.item.item_id).toMatch(/^ritem_[a-z0-9]+$/);
    expect(valueOf(owner.item, 'owner_full_name')).toBe('Alex Morgan');
    expect(owner.answers_revision).toBe(1);
    expect(created.headers.get('etag')).toBe(owner.etag);
    expect(created.body).not.toHaveProperty('item.object');

    const nested = await client.post(itemsOf(appId, 'owner_addresses'), {
      body: { parent_item_id: owner.item.item_id, answers: [answer('owner_address', '7 Orchard Close', 'line1'), answer('owner_years_at_address', 4)] },
    });
    expect(nested.status).toBe(201);
    const address = ItemWriteResult.parse(nested.body);
    expect(address.item).toMatchObject({ block_key: 'owner_addresses', parent_item_id: owner.item.item_id });
    expect(valueOf(address.item, 'owner_address', 'line1')).toBe('7 Orchard Close');

    const children = ItemsPageView.parse((await client.get(`${itemsOf(appId, 'owner_addresses')}?parent_item_id=${owner.item.item_id}`)).body);
    expect(children.items.map((i) => i.item_id)).toEqual([address.item.item_id]);
    expect(children.answers_revision).toBe(address.answers_revision);

    const updated = await client.patch(`${itemsOf(appId, 'owners')}/${owner.item.item_id}`, {
      ifMatch: address.etag,
      body: { answers_revision: address.answers_revision, answers: [answer('owner_email', 'alex@example.com')] },
    });
    expect(updated.status).toBe(200);
    const after = ItemWriteResult.parse(updated.body);
    expect(valueOf(after.item, 'owner_email')).toBe('alex@example.com');
    expect(valueOf(after.item, 'owner_full_name')).toBe('Alex Morgan');
    expect(after.answers_revision).toBe(address.answers_revision + 1);

    // Paging: one item a page, the cursor handed back as it came.
    await client.post(itemsOf(appId, 'owners'), { body: {} });
    const p1 = ItemsPageView.parse((await client.get(`${itemsOf(appId, 'owners')}?page_size=1`)).body);
    expect(p1.items).toHaveLength(1);
    expect(p1.next_cursor).not.toBeNull();
    const p2 = ItemsPageView.parse((await client.get(`${itemsOf(appId, 'owners')}?page_size=1&cursor=${encodeURIComponent(p1.next_cursor!)}`)).body);
    expect(p2.items[0]!.order).toBe(1);

    // Deleting an owner takes its addresses with it.
    const current = ItemsPageView.parse((await client.get(itemsOf(appId, 'owners'))).body);
    const del = await client.delete(`${itemsOf(appId, 'owners')}/${owner.item.item_id}`, { ifMatch: current.etag });
    expect(del.status).toBe(200);
    const deleted = ItemDeleteResult.parse(del.body);
    expect(deleted.deleted_item_ids).toEqual([owner.item.item_id, address.item.item_id]);
    expect(del.headers.get('etag')).toBe(deleted.etag);
    const left = ItemsPageView.parse((await client.get(itemsOf(appId, 'owner_addresses'))).body);
    expect(left.items).toEqual([]);

    const portalHost = new URL(bffStack().sandboxBaseUrl).host;
    for (const r of [empty, created, nested, updated, del]) expect(r.text.includes(portalHost)).toBe(false);

    // Every write is in the audit log, with the application and the Portal's Request-Id.
    const audit = (await listAudit(await bffDb(), appId)).items;
    expect(audit.map((a) => a.operation)).toEqual(['items.delete', 'items.create', 'items.update', 'items.create', 'items.create']);
    for (const a of audit) {
      expect(a).toMatchObject({ applicationId: appId, outcome: 'success' });
      expect(a.upstreamRequestId).toMatch(/^req_/);
    }
    expect(audit[0]).toMatchObject({ objectType: 'repeatable_item', objectId: owner.item.item_id, status: 200 });
    expect(audit.at(-1)).toMatchObject({ objectType: 'repeatable_group', objectId: 'owners', status: 201 });
  });

  it('passes the Portal’s max_items and min_items refusals through as 422', async () => {
    const appId = await newApp();
    const { client } = await signedIn('staff');
    const owners: string[] = [];
    for (let n = 0; n < 4; n++) {
      const r = await client.post(itemsOf(appId, 'owners'), { body: {} });
      expect(r.status).toBe(201);
      owners.push(ItemWriteResult.parse(r.body).item.item_id);
    }
    const fifth = await client.post(itemsOf(appId, 'owners'), { body: {} });
    expect(fifth.status).toBe(422);
    const tooMany = errorOf(fifth);
    expect(tooMany.code).toBe('validation_failed');
    expect(tooMany.request_id).toMatch(/^req_/);
    expect(tooMany.details).toEqual([expect.objectContaining({ code: 'max_items', block_key: 'owners' })]);

    for (const id of owners.slice(1)) {
      const { etag } = ItemsPageView.parse((await client.get(itemsOf(appId, 'owners'))).body);
      expect((await client.delete(`${itemsOf(appId, 'owners')}/${id}`, { ifMatch: etag })).status).toBe(200);
    }
    const { etag } = ItemsPageView.parse((await client.get(itemsOf(appId, 'owners'))).body);
    const last = await client.delete(`${itemsOf(appId, 'owners')}/${owners[0]}`, { ifMatch: etag });
    expect(last.status).toBe(422);
    expect(errorOf(last).details).toEqual([expect.objectContaining({ code: 'min_items', block_key: 'owners', item_id: owners[0] })]);

    // A field-level refusal names the field.
    const bad = await client.post(itemsOf(appId, 'owner_addresses'), { body: { answers: [] } });
    expect(bad.status).toBe(422);
    expect(errorOf(bad).details).toEqual([expect.objectContaining({ code: 'invalid_parent', parameter: 'parent_item_id' })]);
  });

  it('answers a stale item write with 412 and the group’s items as they are now', async () => {
    const appId = await newApp();
    const { client } = await signedIn('staff');
    const owner = ItemWriteResult.parse((await client.post(itemsOf(appId, 'owners'), { body: { answers: [answer('owner_full_name', 'Jo Base')] } })).body);
    const url = `${itemsOf(appId, 'owners')}/${owner.item.item_id}`;

    const theirs = await client.patch(url, { ifMatch: owner.etag, body: { answers_revision: owner.answers_revision, answers: [answer('owner_full_name', 'Jo Theirs')] } });
    expect(theirs.status).toBe(200);
    const written = ItemWriteResult.parse(theirs.body);

    const mine = await client.patch<{ current: unknown }>(url, {
      ifMatch: owner.etag,
      body: { answers_revision: owner.answers_revision, answers: [answer('owner_email', 'jo@example.com')] },
    });
    expect(mine.status).toBe(412);
    expect(mine.headers.get('cache-control')).toBe('private, no-store');
    expect(errorOf(mine).code).toBe('precondition_failed');
    const current = CurrentItems.parse(mine.body.current);
    expect(current).toMatchObject({ block_key: 'owners', answers_revision: written.answers_revision, etag: written.etag });
    expect(mine.headers.get('etag')).toBe(written.etag);
    expect(current.items.map((i) => i.item_id)).toEqual([owner.item.item_id]);
    expect(valueOf(current.items[0]!, 'owner_full_name')).toBe('Jo Theirs');
    expect(mine.text.includes(new URL(bffStack().sandboxBaseUrl).host)).toBe(false);

    // The same goes for a stale delete; and update and delete need If-Match at all.
    const staleDelete = await client.delete<{ current: unknown }>(url, { ifMatch: owner.etag });
    expect(staleDelete.status).toBe(412);
    expect(CurrentItems.parse(staleDelete.body.current).etag).toBe(written.etag);
    const noIfMatch = await client.patch(url, { body: { answers_revision: written.answers_revision, answers: [answer('owner_email', 'jo@example.com')] } });
    expect(noIfMatch.status).toBe(428);
    expect(errorOf(noIfMatch).details).toEqual([expect.objectContaining({ parameter: 'If-Match' })]);
    expect((await client.delete(url)).status).toBe(428);

    const audit = (await listAudit(await bffDb(), appId)).items;
    expect(audit[0]).toMatchObject({ operation: 'items.delete', outcome: 'failure', status: 428 });
    // (route() records a reply the handler returned as 'success' whatever its status; the status tells.)
    expect(audit.find((a) => a.operation === 'items.update' && a.status === 412)?.upstreamRequestId).toMatch(/^req_/);
  });

  it('checks path parameters and bodies before calling the Portal', async () => {
    const appId = await newApp();
    const { client } = await signedIn('staff');
    for (const path of [itemsOf(appId, 'Owners'), itemsOf(appId, 'a'.repeat(65)), itemsOf(appId, 'own%2Fers'), itemsOf('biz_x', 'owners')]) {
      const r = await client.get(path);
      expect(r.status, path).toBe(400);
      expect(errorOf(r).code).toBe('invalid_request');
    }
    const badItem = await client.patch(`${itemsOf(appId, 'owners')}/item_1`, { ifMatch: '"x"', body: { answers_revision: 0, answers: [answer('owner_email', 'a@b.c')] } });
    expect(badItem.status).toBe(400);
    expect(errorOf(badItem).details).toEqual([expect.objectContaining({ parameter: 'itemId' })]);
    expect((await client.get(`${itemsOf(appId, 'owners')}?page_size=501`)).status).toBe(400);
    expect((await client.get(`${itemsOf(appId, 'owners')}?sort=asc`)).status).toBe(400);
    const extra = await client.post(itemsOf(appId, 'owners'), { body: { block_key: 'assets' } });
    expect(extra.status).toBe(422);
    const unknownGroup = await client.get(itemsOf(appId, 'no_such_group'));
    expect(unknownGroup.status).toBe(404);
  });
});

describe('who may use items', () => {
  it('lets a reviewer read but not write', async () => {
    const appId = await newApp();
    const { client: staff } = await signedIn('staff');
    const owner = ItemWriteResult.parse((await staff.post(itemsOf(appId, 'owners'), { body: {} })).body);
    const { client } = await signedIn('reviewer');
    const page = await client.get(itemsOf(appId, 'owners'));
    expect(page.status).toBe(200);
    expect(ItemsPageView.parse(page.body).items).toHaveLength(1);
    const url = `${itemsOf(appId, 'owners')}/${owner.item.item_id}`;
    for (const r of [
      await client.post(itemsOf(appId, 'owners'), { body: {} }),
      await client.patch(url, { ifMatch: owner.etag, body: { answers_revision: owner.answers_revision, answers: [answer('owner_email', 'a@b.c')] } }),
      await client.delete(url, { ifMatch: owner.etag }),
    ]) {
      expect(r.status).toBe(403);
      expect(errorOf(r).code).toBe('forbidden');
    }
    expect(ItemsPageView.parse((await client.get(itemsOf(appId, 'owners'))).body).answers_revision).toBe(owner.answers_revision);
  });

  it('lets the invited client do everything on its application, and nothing on another', async () => {
    const appId = await newApp();
    const otherId = await newApp();
    const client = await clientSessionFor(appId);
    const page = ItemsPageView.parse((await client.get(itemsOf(appId, 'owners'))).body);
    const created = await client.post(itemsOf(appId, 'owners'), { ifMatch: page.etag, body: { answers: [answer('owner_full_name', 'Client Owner')] } });
    expect(created.status).toBe(201);
    const owner = ItemWriteResult.parse(created.body);
    const url = `${itemsOf(appId, 'owners')}/${owner.item.item_id}`;
    const updated = await client.patch(url, { ifMatch: owner.etag, body: { answers_revision: owner.answers_revision, answers: [answer('owner_email', 'c@example.com')] } });
    expect(updated.status).toBe(200);
    const second = ItemWriteResult.parse((await client.post(itemsOf(appId, 'owners'), { body: {} })).body);
    expect((await client.delete(`${itemsOf(appId, 'owners')}/${second.item.item_id}`, { ifMatch: second.etag })).status).toBe(200);

    const audit = (await listAudit(await bffDb(), appId)).items;
    expect(audit[0]).toMatchObject({ operation: 'items.delete', actorKind: 'invitation', outcome: 'success' });

    const { client: staff } = await signedIn('staff');
    const theirs = ItemWriteResult.parse((await staff.post(itemsOf(otherId, 'owners'), { body: {} })).body);
    const otherUrl = `${itemsOf(otherId, 'owners')}/${theirs.item.item_id}`;
    for (const r of [
      await client.get(itemsOf(otherId, 'owners')),
      await client.post(itemsOf(otherId, 'owners'), { body: {} }),
      await client.patch(otherUrl, { ifMatch: theirs.etag, body: { answers_revision: theirs.answers_revision, answers: [answer('owner_email', 'x@example.com')] } }),
      await client.delete(otherUrl, { ifMatch: theirs.etag }),
    ]) {
      expect(r.status).toBe(404);
      expect(errorOf(r).code).toBe('not_found');
    }
    expect(ItemsPageView.parse((await staff.get(itemsOf(otherId, 'owners'))).body).items).toHaveLength(1);
  });

  it('refuses anonymous callers and writes without X-CSRF', async () => {
    const appId = await newApp();
    const anonymous = new BffClient();
    expect((await anonymous.get(itemsOf(appId, 'owners'))).status).toBe(401);
    expect((await anonymous.post(itemsOf(appId, 'owners'), { body: {} })).status).toBe(401);
    const { client } = await signedIn('staff');
    const owner = ItemWriteResult.parse((await client.post(itemsOf(appId, 'owners'), { body: {} })).body);
    const url = `${itemsOf(appId, 'owners')}/${owner.item.item_id}`;
    for (const r of [
      await client.post(itemsOf(appId, 'owners'), { body: {}, noCsrf: true }),
      await client.patch(url, { noCsrf: true, ifMatch: owner.etag, body: { answers_revision: owner.answers_revision, answers: [answer('owner_email', 'a@b.c')] } }),
      await client.delete(url, { noCsrf: true, ifMatch: owner.etag }),
    ]) {
      expect(r.status).toBe(403);
      expect(errorOf(r).code).toBe('csrf_failed');
    }
  });
});
