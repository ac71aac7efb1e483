import { z } from 'zod';
import { DateTime, NonNegativeInt, Revision, Uri, forwardPage } from './common';
import { BlockKey, FieldKey, SchemaKey, SectionKey } from './contract';
import { AnswerFileId, ApplicationId, DealApplicationId, RepeatableItemId } from './ids';
import { LIMITS } from './limits';

/** Answer value (spec 2.10 and §8). */
export const AnswerValue = z.union([
  z.null(),
  z.string().max(LIMITS.answerStringMax),
  z.int(),
  z.number(),
  z.boolean(),
  z.array(z.string().max(LIMITS.answerArrayStringMax)).max(LIMITS.answerArrayMaxItems),
  z.array(z.int()).max(LIMITS.answerArrayMaxItems),
  z.array(z.number()).max(LIMITS.answerArrayMaxItems),
  z.array(z.boolean()).max(LIMITS.answerArrayMaxItems),
]);
export type AnswerValue = z.infer<typeof AnswerValue>;

/** Answer item (spec 2.10). */
export const AnswerItem = z.strictObject({
  section_key: SectionKey,
  section_label: z.string(),
  block_key: BlockKey,
  block_label: z.string(),
  schema_key: SchemaKey,
  field_key: FieldKey,
  field_label: z.string(),
  value_type: z.string().min(LIMITS.valueType.min).max(LIMITS.valueType.max),
  is_required: z.boolean(),
  allowed_values: z.array(z.string().max(LIMITS.allowedValueMax)),
  value: AnswerValue,
});
export type AnswerItem = z.infer<typeof AnswerItem>;

/** An answers page: forward only, and it carries answers_revision. */
export const AnswerPage = forwardPage(AnswerItem).extend({ answers_revision: Revision });
export type AnswerPage = z.infer<typeof AnswerPage>;

/** Paging of the answer set's collections (answers, repeatable items): larger pages than elsewhere. */
const answersPaging = {
  page_size: z.coerce.number().int().min(LIMITS.answersPaging.min).max(LIMITS.answersPaging.max).optional(),
  cursor: z.string().min(1).optional(),
};

export const AnswersQuery = z.strictObject({ ...answersPaging, section_key: SectionKey.optional() });

/** Which field an answer, upload or file belongs to. */
export const AnswerKey = z.strictObject({ block_key: BlockKey, schema_key: SchemaKey, field_key: FieldKey });

export const AnswerWrite = AnswerKey.extend({ value: AnswerValue });
export type AnswerWrite = z.infer<typeof AnswerWrite>;

/** Answer write body (DESIGN.md §5). Values are checked against value_schema by the receiver, not here. */
export const AnswersUpdateBody = z.strictObject({
  answers_revision: Revision,
  answers: z.array(AnswerKey.extend({ value: z.unknown() })).min(1).max(1_000),
});
export type AnswersUpdateBody = z.infer<typeof AnswersUpdateBody>;

const mutation = <O extends string, A extends string>(object: O, appObject: A, appId: z.ZodString) =>
  z.strictObject({
    object: z.literal(object),
    application: z.strictObject({ id: appId, object: z.literal(appObject) }),
    answers_revision: Revision,
    updated_answers: z.array(AnswerWrite),
    affected_section_keys: z.array(z.string()),
  });

/** Answer mutation result (spec 2.10), intake and deal variants. */
export const AnswersMutationResult = mutation(
  'client_intake_application_answers',
  'client_intake_application',
  ApplicationId,
);
export type AnswersMutationResult = z.infer<typeof AnswersMutationResult>;
export const DealAnswersMutationResult = mutation('deal_application_answers', 'deal_application', DealApplicationId);
export type DealAnswersMutationResult = z.infer<typeof DealAnswersMutationResult>;

/** A repeatable item (DESIGN.md §5). */
export const RepeatableItem = z.strictObject({
  object: z.literal('repeatable_item'),
  item_id: RepeatableItemId,
  block_key: BlockKey,
  parent_item_id: RepeatableItemId.nullable(),
  order: z.int().min(0),
  answers: z.array(AnswerItem),
});
export type RepeatableItem = z.infer<typeof RepeatableItem>;
export const RepeatableItemPage = forwardPage(RepeatableItem).extend({ answers_revision: Revision });
export type RepeatableItemPage = z.infer<typeof RepeatableItemPage>;

export const RepeatableItemsQuery = z.strictObject({ ...answersPaging, parent_item_id: RepeatableItemId.optional() });

/** An answer write of a repeatable item as the BFF sends it: the item's group names the block, so no block_key. */
export const ItemAnswerWrite = AnswerKey.omit({ block_key: true }).extend({ value: z.unknown() });
/**
 * As the Portal takes it: spec 2.10 sends block_key, schema_key and field_key unchanged, so block_key may come
 * along; the receiver refuses one that is not the item's group.
 */
const ItemAnswerWriteFull = ItemAnswerWrite.extend({ block_key: BlockKey.optional() });

export const RepeatableItemCreateBody = z.strictObject({
  block_key: BlockKey,
  parent_item_id: RepeatableItemId.optional(),
  answers: z.array(ItemAnswerWriteFull).max(1_000).optional(),
});
export type RepeatableItemCreateBody = z.infer<typeof RepeatableItemCreateBody>;

export const RepeatableItemUpdateBody = z.strictObject({
  answers_revision: Revision,
  answers: z.array(ItemAnswerWriteFull).min(1).max(1_000),
});
export type RepeatableItemUpdateBody = z.infer<typeof RepeatableItemUpdateBody>;

/**
 * Item create and update replies: the item and the application's new answers_revision, shaped like the
 * suggestion acceptance result of spec 2.13 (the spec leaves this reply "not shown").
 */
export const RepeatableItemMutationResult = z.strictObject({
  item: RepeatableItem,
  answers_revision: Revision,
});
export type RepeatableItemMutationResult = z.infer<typeof RepeatableItemMutationResult>;

/** Item delete reply: every removed item (the item and its nested children) and the new answers_revision. */
export const RepeatableItemDeleteResult = z.strictObject({
  deleted_item_ids: z.array(RepeatableItemId).min(1),
  answers_revision: Revision,
});
export type RepeatableItemDeleteResult = z.infer<typeof RepeatableItemDeleteResult>;

/** Request for upload credentials at file_uploads_url (item_id: which item of a repeatable question). */
export const FileUploadRequestBody = AnswerKey.extend({ item_id: RepeatableItemId.optional() });
export type FileUploadRequestBody = z.infer<typeof FileUploadRequestBody>;

/** A file attached to a file question (the spec's "file listing of answers", completed here). */
export const AnswerFile = z.strictObject({
  id: AnswerFileId,
  object: z.literal('answer_file'),
  ...AnswerKey.shape,
  item_id: RepeatableItemId.nullable(),
  filename: z.string(),
  content_type: z.string(),
  size: NonNegativeInt,
  created_at: DateTime,
  url: Uri,
});
export type AnswerFile = z.infer<typeof AnswerFile>;
export const AnswerFilePage = forwardPage(AnswerFile);
export type AnswerFilePage = z.infer<typeof AnswerFilePage>;

export const AnswerFilesQuery = z.strictObject({
  page_size: z.coerce.number().int().min(1).max(100).optional(),
  cursor: z.string().min(1).optional(),
  ...FileUploadRequestBody.partial().shape,
});

export const AnswerFileDeleteResult = z.strictObject({
  id: AnswerFileId,
  object: z.literal('answer_file'),
  deleted: z.literal(true),
});
