import { z } from 'zod';
import { AnswerItem, ItemAnswerWrite, LIMITS, RepeatableItemCreateBody, RepeatableItemId, RepeatableItemUpdateBody } from '@/lib/portal';
import { answerSetReply } from './applications';

/**
 * Repeatable items as the browser sends and gets them (DESIGN.md §5): the Portal's items without `object`,
 * plus the answers ETag the browser quotes back in If-Match (items share the answer set's one ETag).
 */

/** The block keys the BFF accepts in a path: the spec's length, and only characters a contract uses. */
const BLOCK_KEY_PATTERN = /^[a-z0-9_-]{1,64}$/;
export const BlockKeyParam = z.string().regex(BLOCK_KEY_PATTERN, 'not a block key');

export const RepeatableItemView = z.object({
  item_id: RepeatableItemId,
  block_key: z.string(),
  parent_item_id: RepeatableItemId.nullable(),
  order: z.number().int(),
  answers: z.array(AnswerItem),
});
export type RepeatableItemView = z.infer<typeof RepeatableItemView>;

export const ItemsQuery = z.strictObject({
  parent_item_id: RepeatableItemId.optional(),
  cursor: z.string().min(1).max(2000).optional(),
  page_size: z.coerce.number().int().min(LIMITS.answersPaging.min).max(LIMITS.answersPaging.max).optional(),
});
export type ItemsQuery = z.infer<typeof ItemsQuery>;

export const ItemsPageView = answerSetReply({ items: z.array(RepeatableItemView), next_cursor: z.string().nullable() });
export type ItemsPageView = z.infer<typeof ItemsPageView>;

/** The block key comes from the path, so the browser leaves it out (of the item and of its answers). */
export const ItemCreateBody = RepeatableItemCreateBody.omit({ block_key: true }).extend({ answers: z.array(ItemAnswerWrite).max(1_000).optional() });
export type ItemCreateBody = z.infer<typeof ItemCreateBody>;

export const ItemUpdateBody = RepeatableItemUpdateBody.extend({ answers: z.array(ItemAnswerWrite).min(1).max(1_000) });
export type ItemUpdateBody = z.infer<typeof ItemUpdateBody>;

/** Create and update replies: the item and the answer set's new revision and ETag. */
export const ItemWriteResult = answerSetReply({ item: RepeatableItemView });
export type ItemWriteResult = z.infer<typeof ItemWriteResult>;

/** Delete reply: the item and its nested children, all gone. */
export const ItemDeleteResult = answerSetReply({ deleted_item_ids: z.array(RepeatableItemId) });
export type ItemDeleteResult = z.infer<typeof ItemDeleteResult>;

/** Every item of the group as of now (all parents): sent with a 412 so the browser merges without another read. */
export const CurrentItems = answerSetReply({ block_key: z.string(), items: z.array(RepeatableItemView) });
export type CurrentItems = z.infer<typeof CurrentItems>;
