import 'server-only';
import { z } from 'zod';
import { BlockKeyParam } from '@/lib/bff/items';
import { ID_PATTERNS, RepeatableItemId } from '@/lib/portal';

export const DealApplicationParams = z.strictObject({
  dealApplicationId: z.string().regex(ID_PATTERNS.dealApplication, 'not a deal application id'),
});
export type DealApplicationParams = z.infer<typeof DealApplicationParams>;

export const DealItemsParams = DealApplicationParams.extend({ blockKey: BlockKeyParam });
export type DealItemsParams = z.infer<typeof DealItemsParams>;

export const DealItemParams = DealItemsParams.extend({ itemId: RepeatableItemId });
export type DealItemParams = z.infer<typeof DealItemParams>;

export const DealFileParams = DealApplicationParams.extend({ fileId: z.string().regex(ID_PATTERNS.answerFile, 'not a file id') });
export type DealFileParams = z.infer<typeof DealFileParams>;
