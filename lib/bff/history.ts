import { z } from 'zod';
import { LIMITS } from '@/lib/portal/limits';

import { HISTORY_ACTORS } from './history-actor';

/** One change of one answer, as the browser gets it. */
export const HistoryEntryView = z.object({
  id: z.number().int(),
  schema_key: z.string(),
  field_key: z.string(),
  item_id: z.string().nullable(),
  /** The value before; `known: false` when history started with this change (its earlier value was never seen). */
  old: z.object({ known: z.boolean(), value: z.unknown() }),
  new_value: z.unknown(),
  /** Who: a staff member or reviewer by name, the client, an Autofill suggestion (name: the reviewer who accepted it), or outside the app. */
  by: z.object({ kind: z.enum(HISTORY_ACTORS), name: z.string().nullable() }),
  answers_revision: z.number().int(),
  at: z.string(),
});
export type HistoryEntryView = z.infer<typeof HistoryEntryView>;

export const HistoryPageView = z.object({
  entries: z.array(HistoryEntryView),
  /** Pass as `before` for the older entries; null when there are none. */
  next_before: z.number().int().nullable(),
});
export type HistoryPageView = z.infer<typeof HistoryPageView>;

/**
 * One question's history (schema_key; field_key for one of its fields; item_id inside a repeatable item), or
 * the whole application's without them.
 */
export const HistoryQuery = z
  .strictObject({
    schema_key: z.string().min(1).max(LIMITS.schemaKey.max).optional(),
    field_key: z.string().min(1).max(LIMITS.fieldKey.max).optional(),
    item_id: z.string().min(1).max(255).optional(),
    before: z.coerce.number().int().min(1).optional(),
    limit: z.coerce.number().int().min(1).max(100).optional(),
  })
  .refine((q) => q.field_key === undefined || q.schema_key !== undefined, { message: 'field_key names a field of a question: give schema_key too' })
  .refine((q) => q.item_id === undefined || q.schema_key !== undefined, { message: 'item_id names an answer: give schema_key too' });
export type HistoryQuery = z.infer<typeof HistoryQuery>;

