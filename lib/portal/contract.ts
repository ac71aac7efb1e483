import { z } from 'zod';
import { Revision, Uri } from './common';
import { ApplicationId, DealApplicationId, ProjectCriteriaId } from './ids';
import { LIMITS } from './limits';
import { ValueSchema } from './value-schema';
import { Visibility } from './visibility';

const SectionKey = z.string().min(LIMITS.sectionKey.min).max(LIMITS.sectionKey.max);
const BlockKey = z.string().min(LIMITS.blockKey.min).max(LIMITS.blockKey.max);
const SchemaKey = z.string().min(LIMITS.schemaKey.min).max(LIMITS.schemaKey.max);
const FieldKey = z.string().min(LIMITS.fieldKey.min).max(LIMITS.fieldKey.max);
export { BlockKey, FieldKey, SchemaKey, SectionKey };

export const ANSWER_SHAPES = ['field', 'selection_list', 'file'] as const;
export const AnswerShape = z.enum(ANSWER_SHAPES);
export type AnswerShape = z.infer<typeof AnswerShape>;

/** Kinds the sandbox's contracts use; `kind` stays an open string, and forms fall back on value_schema. */
export const KNOWN_KINDS = [
  'text',
  'long_text',
  'email',
  'phone',
  'url',
  'integer',
  'number',
  'currency',
  'percent',
  'date',
  'yes_no',
  'single_choice',
  'multi_choice',
  'address',
  'file',
] as const;
export type KnownKind = (typeof KNOWN_KINDS)[number];

export const ContractSection = z.strictObject({ section_key: SectionKey, label: z.string(), order: z.int() });
export type ContractSection = z.infer<typeof ContractSection>;

const ITEM_OPERATIONS = ['list', 'create', 'update', 'delete'] as const;
export const RepeatableGroup = z.strictObject({
  block_key: BlockKey,
  section_key: SectionKey,
  parent_block_key: BlockKey.nullable(),
  min_items: z.int().min(0).nullable(),
  max_items: z.int().min(0).nullable(),
  item_question_keys: z.array(SchemaKey),
  item_operations: z.array(z.enum(ITEM_OPERATIONS)),
});
export type RepeatableGroup = z.infer<typeof RepeatableGroup>;

export const QuestionField = z.strictObject({
  field_key: FieldKey,
  label: z.string(),
  help_text: z.string().nullable(),
  is_required: z.boolean(),
  value_schema: ValueSchema,
  example: z.unknown(),
});
export type QuestionField = z.infer<typeof QuestionField>;

const ANSWER_OPERATIONS = ['read', 'update', 'upload', 'delete'] as const;
export const Question = z.strictObject({
  block_key: BlockKey,
  schema_key: SchemaKey,
  section_key: SectionKey,
  parent_block_key: BlockKey.nullable(),
  kind: z.string().min(1),
  label: z.string(),
  help_text: z.string().nullable(),
  is_required: z.boolean(),
  is_repeatable: z.boolean(),
  answer_shape: AnswerShape,
  order: z.int(),
  answer_operations: z.array(z.enum(ANSWER_OPERATIONS)),
  visibility: Visibility,
  fields: z.array(QuestionField),
});
export type Question = z.infer<typeof Question>;

const ContractOperations = z.strictObject({
  read_answers_url: Uri,
  update_answers_url: Uri,
  repeatable_items_url: Uri,
  file_uploads_url: Uri,
  files_url: Uri,
  submit_url: Uri,
});

/** 2.9 Application contract; `resource` names a client intake or a deal application, or a project's criteria (DESIGN.md §6). */
export const ApplicationContract = z.strictObject({
  object: z.literal('application_contract'),
  contract_version: z.string(),
  answers_revision: Revision,
  application_name: z.string(),
  description: z.string(),
  instructions: z.string(),
  resource: z.union([
    z.strictObject({ id: ApplicationId, object: z.literal('client_intake_application') }),
    z.strictObject({ id: DealApplicationId, object: z.literal('deal_application') }),
    z.strictObject({ id: ProjectCriteriaId, object: z.literal('project_criteria') }),
  ]),
  sections: z.array(ContractSection),
  repeatable_groups: z.array(RepeatableGroup),
  questions: z.array(Question),
  operations: ContractOperations,
});
export type ApplicationContract = z.infer<typeof ApplicationContract>;
