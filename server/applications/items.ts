import 'server-only';
import type { CurrentItems, ItemCreateBody, ItemsQuery, ItemUpdateBody } from '@/lib/bff/items';
import { RepeatableItemDeleteResult, RepeatableItemMutationResult, RepeatableItemPage, type RepeatableItem } from '@/lib/portal';
import { portalRequest, readFilteredPage, urlBelow } from '@/server/portal';
import type { ApplicationLinks } from './kind-links';
import { answerSetEtag, upstreamIfMatch } from './answers-etag';
import { itemView } from './application-views';

/** Only the items collection is used, so every kind of application shares these functions. */
type Links = Pick<ApplicationLinks, 'repeatableItems'>;

/** Items of one group live below repeatable_items_url; nothing here builds a path of its own. */
const groupUrl = (links: Links, blockKey: string) => urlBelow(links.repeatableItems, blockKey);
const itemUrl = (links: Links, blockKey: string, itemId: string) => urlBelow(links.repeatableItems, blockKey, itemId);

/** A page of a group's items; a parent_item_id the Portal does not take is applied here (readFilteredPage). */
export function listItems(links: Links, blockKey: string, query: ItemsQuery) {
  return readFilteredPage({ url: groupUrl(links, blockKey), schema: RepeatableItemPage, query });
}

export function createItem(
  links: Links,
  blockKey: string,
  body: ItemCreateBody,
  options: { ifMatch?: string; idempotencyKey?: string },
) {
  return portalRequest({
    method: 'POST',
    url: groupUrl(links, blockKey),
    schema: RepeatableItemMutationResult,
    body: { block_key: blockKey, ...body },
    ...options,
    ifMatch: upstreamIfMatch(options.ifMatch),
  });
}

export function updateItem(links: Links, blockKey: string, itemId: string, body: ItemUpdateBody, ifMatch: string) {
  return portalRequest({ method: 'PATCH', url: itemUrl(links, blockKey, itemId), schema: RepeatableItemMutationResult, body, ifMatch: upstreamIfMatch(ifMatch) });
}

export function deleteItem(links: Links, blockKey: string, itemId: string, ifMatch: string) {
  return portalRequest({ method: 'DELETE', url: itemUrl(links, blockKey, itemId), schema: RepeatableItemDeleteResult, ifMatch: upstreamIfMatch(ifMatch) });
}

/** Every item of a group, of every parent, walking the pages (500 a page: one call for any real contract). */
export async function readAllItems(links: Links, blockKey: string): Promise<CurrentItems> {
  const items: RepeatableItem[] = [];
  let cursor: string | null = null;
  let answersRevision = 0;
  let etag = '';
  do {
    const res: Awaited<ReturnType<typeof listItems>> = await listItems(links, blockKey, { page_size: 500, ...(cursor ? { cursor } : {}) });
    items.push(...res.data.items);
    cursor = res.data.next_cursor;
    answersRevision = res.data.answers_revision;
    etag = answerSetEtag(res.etag, answersRevision);
  } while (cursor);
  return { block_key: blockKey, items: items.map(itemView), answers_revision: answersRevision, etag };
}
