// The application contract as a JSON Schema, a uiSchema and initial formData, so that @rjsf/core (the peer of
// the form render benchmark) renders the same form our intake page renders, from the same contract and answers.
//
// The mapping, kept as faithful as JSON Schema and rjsf allow:
// - the root is an object with one property per section, in contract order (titles = section labels);
// - each question outside a repeatable group is a property of its section, in contract order:
//   - one field (field_key "value"): the field's value_schema as is, title = label, description = help text;
//   - several fields (an address): an object with one property per field, the fields' is_required as `required`;
//   - is_required → the section's `required` list;
// - a repeatable group is an array of objects (min_items / max_items → minItems / maxItems), placed where its
//   first question is; an item holds the group's questions and its nested groups, recursively;
// - widgets as our form chooses them (lib/forms/widgets.ts): long_text → textarea; a single choice with ≤ 6
//   options → radio, more → select; yes/no → radio (so "not answered" stays distinct from "no"); multi choice →
//   checkboxes (uniqueItems is added: rjsf renders a multi-select only for a set); files → file input
//   (items format data-url, the only way rjsf renders a file picker);
// - visibility rules are NOT expressed (rjsf would need if/then/else or dependencies per rule). Every question is
//   rendered, which gives rjsf slightly more fields than our form shows and none of its schema-retrieval cost for
//   conditionals: a choice in the peer's favour, so the ratio is if anything understated.
import type { AnswerItem, ApplicationContract, Question, QuestionField, RepeatableGroup, RepeatableItem, ValueSchema } from '@/lib/portal';

export type JsonSchema = {
  type?: string | string[];
  title?: string;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  [keyword: string]: unknown;
};
export type UiSchema = { [key: string]: unknown };
export type FormData = { [key: string]: unknown };

/** More options than this read better as a drop-down than as a column of radio buttons (as in our form). */
const RADIO_MAX_OPTIONS = 6;

const clean = (s: JsonSchema): JsonSchema =>
  Object.fromEntries(Object.entries(s).filter(([, v]) => v !== undefined && v !== null && v !== '')) as JsonSchema;

function fieldSchema(field: QuestionField, title: string, help: string | null): JsonSchema {
  const vs = field.value_schema as ValueSchema & JsonSchema;
  return clean({ ...vs, title, description: help ?? undefined });
}

/** The uiSchema entry of one field, from the question's kind and the field's value_schema. */
function fieldUi(q: Question, field: QuestionField): UiSchema | null {
  const vs = field.value_schema;
  if (q.answer_shape === 'file') return { 'ui:widget': 'files' };
  if (vs.type === 'array') return vs.items?.enum ? { 'ui:widget': 'checkboxes' } : null;
  if (vs.type === 'boolean') return { 'ui:widget': 'radio' };
  if (vs.enum) return { 'ui:widget': vs.enum.length > RADIO_MAX_OPTIONS ? 'select' : 'radio' };
  if (q.kind === 'long_text') return { 'ui:widget': 'textarea' };
  return null;
}

/** A field's schema with what rjsf needs to pick the widget our form picks (see the header). */
function rjsfFieldSchema(q: Question, field: QuestionField, title: string, help: string | null): JsonSchema {
  const s = fieldSchema(field, title, help);
  if (q.answer_shape === 'file') return { ...s, items: { ...(s.items ?? {}), type: 'string', format: 'data-url' } };
  if (s.type === 'array' && s.items && 'enum' in s.items) return { ...s, uniqueItems: true };
  return s;
}

function questionSchema(q: Question): { schema: JsonSchema; ui: UiSchema | null } {
  const only = q.fields.length === 1 && q.fields[0]!.field_key === 'value' ? q.fields[0]! : null;
  if (only) return { schema: rjsfFieldSchema(q, only, q.label, q.help_text ?? only.help_text), ui: fieldUi(q, only) };
  const properties: Record<string, JsonSchema> = {};
  const ui: UiSchema = {};
  for (const f of q.fields) {
    properties[f.field_key] = rjsfFieldSchema(q, f, f.label, f.help_text);
    const fu = fieldUi(q, f);
    if (fu) ui[f.field_key] = fu;
  }
  const required = q.fields.filter((f) => f.is_required).map((f) => f.field_key);
  return {
    schema: clean({ type: 'object', title: q.label, description: q.help_text ?? undefined, properties, required: required.length ? required : undefined }),
    ui: Object.keys(ui).length ? ui : null,
  };
}

/** Questions and groups of one container (a section, or a group's item), in contract order. */
type Entry = { kind: 'question'; q: Question } | { kind: 'group'; g: RepeatableGroup };

function entriesOf(contract: ApplicationContract, sectionKey: string, parentBlock: string | null): Entry[] {
  const groups = contract.repeatable_groups.filter((g) => g.section_key === sectionKey);
  const groupKeys = new Set(groups.map((g) => g.block_key));
  const inContainer = (q: Question) =>
    parentBlock === null ? !q.is_repeatable && !groupKeys.has(q.block_key) : q.block_key === parentBlock;
  const firstOrder = (g: RepeatableGroup): number => {
    const own = contract.questions.filter((q) => q.block_key === g.block_key).map((q) => q.order);
    const nested = groups.filter((c) => c.parent_block_key === g.block_key).map(firstOrder);
    return Math.min(...own, ...nested, Number.MAX_SAFE_INTEGER);
  };
  const entries: { order: number; entry: Entry }[] = [
    ...contract.questions
      .filter((q) => q.section_key === sectionKey && inContainer(q))
      .map((q) => ({ order: q.order, entry: { kind: 'question', q } as Entry })),
    ...groups.filter((g) => g.parent_block_key === parentBlock).map((g) => ({ order: firstOrder(g), entry: { kind: 'group', g } as Entry })),
  ];
  return entries.sort((a, b) => a.order - b.order).map((e) => e.entry);
}

function containerSchema(
  contract: ApplicationContract,
  sectionKey: string,
  parentBlock: string | null,
  title: string | undefined,
): { schema: JsonSchema; ui: UiSchema } {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const ui: UiSchema = {};
  for (const e of entriesOf(contract, sectionKey, parentBlock)) {
    if (e.kind === 'question') {
      const { schema, ui: qui } = questionSchema(e.q);
      properties[e.q.schema_key] = schema;
      if (e.q.is_required) required.push(e.q.schema_key);
      if (qui) ui[e.q.schema_key] = qui;
    } else {
      const item = containerSchema(contract, sectionKey, e.g.block_key, undefined);
      properties[e.g.block_key] = clean({
        type: 'array',
        title: e.g.block_key,
        minItems: e.g.min_items ?? undefined,
        maxItems: e.g.max_items ?? undefined,
        items: item.schema,
      });
      if (Object.keys(item.ui).length) ui[e.g.block_key] = { items: item.ui };
    }
  }
  return { schema: clean({ type: 'object', title, properties, required: required.length ? required : undefined }), ui };
}

/** The contract as rjsf's schema and uiSchema (see the header for the mapping). */
export function contractToJsonSchema(contract: ApplicationContract): { schema: JsonSchema; uiSchema: UiSchema } {
  const properties: Record<string, JsonSchema> = {};
  const uiSchema: UiSchema = {};
  for (const s of [...contract.sections].sort((a, b) => a.order - b.order)) {
    const { schema, ui } = containerSchema(contract, s.section_key, null, s.label);
    properties[s.section_key] = schema;
    if (Object.keys(ui).length) uiSchema[s.section_key] = ui;
  }
  const schema = clean({
    type: 'object',
    title: contract.application_name,
    description: contract.description,
    properties,
  });
  return { schema, uiSchema };
}

/** Counts of what the schema renders, for the report: leaf fields outside groups, and questions. */
export function countFields(contract: ApplicationContract): { questions: number; fields: number } {
  return { questions: contract.questions.length, fields: contract.questions.reduce((n, q) => n + q.fields.length, 0) };
}

function putAnswer(target: FormData, q: Question, a: Pick<AnswerItem, 'field_key' | 'value'>) {
  if (a.value === null || a.value === undefined) return;
  const single = q.fields.length === 1 && q.fields[0]!.field_key === 'value';
  if (single) target[q.schema_key] = a.value;
  else ((target[q.schema_key] ??= {}) as FormData)[a.field_key] = a.value;
}

/**
 * The saved answers (and repeatable items) as rjsf formData, so the peer starts from the same state as our form.
 * File answers are left out: they are file ids, which rjsf's file widget cannot show.
 */
export function answersToFormData(contract: ApplicationContract, answers: AnswerItem[], items: RepeatableItem[]): FormData {
  const bySchemaKey = new Map(contract.questions.map((q) => [q.schema_key, q]));
  const groups = new Map(contract.repeatable_groups.map((g) => [g.block_key, g]));
  const data: FormData = {};
  const sectionData = (key: string) => (data[key] ??= {}) as FormData;
  for (const a of answers) {
    const q = bySchemaKey.get(a.schema_key);
    if (!q || q.is_repeatable || q.answer_shape === 'file') continue;
    putAnswer(sectionData(q.section_key), q, a);
  }
  const itemData = (item: RepeatableItem): FormData => {
    const out: FormData = {};
    for (const a of item.answers) {
      const q = bySchemaKey.get(a.schema_key);
      if (q && q.answer_shape !== 'file') putAnswer(out, q, a);
    }
    for (const child of items.filter((i) => i.parent_item_id === item.item_id).sort((x, y) => x.order - y.order)) {
      ((out[child.block_key] ??= []) as FormData[]).push(itemData(child));
    }
    return out;
  };
  for (const item of items.filter((i) => i.parent_item_id === null).sort((x, y) => x.order - y.order)) {
    const g = groups.get(item.block_key);
    if (!g) continue;
    ((sectionData(g.section_key)[g.block_key] ??= []) as FormData[]).push(itemData(item));
  }
  return data;
}

/** The first plain text question outside groups, always visible: the field both forms are typed into by default. */
export function firstPlainTextQuestion(contract: ApplicationContract): Question | undefined {
  return contract.questions.find(
    (q) =>
      q.kind === 'text' &&
      !q.is_repeatable &&
      q.answer_shape === 'field' &&
      q.fields.length === 1 &&
      q.fields[0]!.field_key === 'value' &&
      q.visibility.rule === 'always',
  );
}
