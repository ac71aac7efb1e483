import {
  compileValueSchema,
  compileVisibility,
  visibilityDependencies,
  type ValueValidator,
  type VisibilityCheck,
  type VisibilityDependency,
} from '../contract';
import type { ContractSection, Question, QuestionField, RepeatableGroup } from '../portal/contract';
import type { ValueSchema } from '../portal/value-schema';
import type { Visibility } from '../portal/visibility';
import { countryCodeCase, countryOptions } from './countries';
import { exampleHint } from './hints';
import { codeKindOf, humanize, labelsFromHelpText, labelsFromSchema, optionLabel } from './labels';
import { answerName, fieldKeyOf, parseName } from './names';
import { oncePerObject } from './once-per-object';
import { schemaFacts, type Choice, type SchemaFacts } from './schema-facts';
import {
  ADDRESS_FIELD_KEYS,
  autocompleteFor,
  chooseWidget,
  inputAttributes,
  textLimitOf,
  type InputAttributes,
  type TextLimit,
  type Widget,
} from './widgets';

/**
 * The contract turned into a form model (DESIGN.md §4), compiled once per contract object: sections in
 * `order`, each with its questions and repeatable groups in display order, every field with its widget,
 * input attributes, options, compiled validator and stable name. Everything later modules need at
 * keystroke time is worked out here, once.
 */

/** The parts of a contract the form reads: the BFF's ContractView and the sandbox's templates both fit. */
export interface FormContract {
  readonly contract_version: string;
  readonly sections: readonly ContractSection[];
  readonly repeatable_groups: readonly RepeatableGroup[];
  readonly questions: readonly Question[];
}

export interface FieldOption {
  /** The value as the DOM carries it (always a string). */
  readonly value: string;
  readonly label: string;
  /** The value as the answer holds it (a string, number or boolean of the schema's enum). */
  readonly answer: Choice;
}

export interface FieldModel {
  /** `schema_key` + `field_key`: the field's identity across items (see names.fieldKeyOf). */
  readonly id: string;
  readonly blockKey: string;
  readonly schemaKey: string;
  readonly fieldKey: string;
  /** The repeatable group the field is in, or null at the top level. */
  readonly groupKey: string | null;
  /** The top-level field's name; null in groups, where names are per item (names.itemName). */
  readonly name: string | null;
  readonly label: string;
  readonly helpText: string | null;
  /** question.is_required && field.is_required; applies only while the question is visible. */
  readonly required: boolean;
  /** The contract's example as text to show as a hint ("For example …"), or null. */
  readonly hint: string | null;
  readonly widget: Widget;
  readonly attributes: InputAttributes;
  /** The length limit a live counter shows (typed text only); null for other widgets. */
  readonly textLimit: TextLimit | null;
  /** Choices for radio, select and checkbox-group, in the schema's order; null for other widgets. */
  readonly options: readonly FieldOption[] | null;
  /** For file fields: how many files it takes (undefined: no limit but the spec's). */
  readonly maxFiles: number | undefined;
  readonly readOnly: boolean;
  readonly valueSchema: ValueSchema;
  readonly facts: SchemaFacts;
  /** value_schema compiled once, on first use (lib/contract); includes the spec's limits. */
  readonly validate: ValueValidator;
  readonly question: QuestionModel;
}

/** How a question's fields are laid out: one field, an address block, or any other set of fields. */
export type QuestionLayout = 'single' | 'address' | 'fieldset';

export interface QuestionModel {
  readonly blockKey: string;
  readonly schemaKey: string;
  readonly sectionKey: string;
  readonly groupKey: string | null;
  readonly kind: string;
  readonly label: string;
  readonly helpText: string | null;
  readonly isRequired: boolean;
  readonly answerShape: string;
  readonly order: number;
  readonly layout: QuestionLayout;
  readonly canUpdate: boolean;
  readonly canUpload: boolean;
  readonly canDelete: boolean;
  readonly visibility: Visibility;
  /** Compiled visibility (fails open on anything unknown, see lib/contract/visibility). */
  readonly isVisible: VisibilityCheck;
  /** Fields this question's visibility reads; empty when it is always visible. */
  readonly dependsOn: readonly VisibilityDependency[];
  readonly fields: readonly FieldModel[];
}

export interface GroupModel {
  readonly blockKey: string;
  readonly label: string;
  readonly sectionKey: string;
  readonly parentBlockKey: string | null;
  readonly minItems: number | null;
  readonly maxItems: number | null;
  readonly canList: boolean;
  readonly canCreate: boolean;
  readonly canUpdate: boolean;
  readonly canDelete: boolean;
  /** How deep it is nested: 0 for a group at the top level. */
  readonly depth: number;
  readonly questions: readonly QuestionModel[];
  readonly fields: readonly FieldModel[];
  /** Groups nested in this one's items, in display order. */
  readonly children: readonly GroupModel[];
}

export type SectionEntry =
  | { readonly type: 'question'; readonly question: QuestionModel }
  | { readonly type: 'group'; readonly group: GroupModel };

export interface SectionModel {
  readonly sectionKey: string;
  readonly label: string;
  readonly order: number;
  readonly entries: readonly SectionEntry[];
  /** Top-level fields of the section, in display order. */
  readonly fields: readonly FieldModel[];
  /** Groups at the top level of the section, in display order. */
  readonly groups: readonly GroupModel[];
}

export interface FormModel {
  readonly contractVersion: string;
  readonly sections: readonly SectionModel[];
  /** Every field outside repeatable groups, in display order. */
  readonly topFields: readonly FieldModel[];
  readonly topFieldByName: ReadonlyMap<string, FieldModel>;
  /** Every field of the contract by fieldKeyOf(schema_key, field_key). */
  readonly fieldById: ReadonlyMap<string, FieldModel>;
  readonly questionBySchemaKey: ReadonlyMap<string, QuestionModel>;
  readonly groupByKey: ReadonlyMap<string, GroupModel>;
  /** Every group, parents before children. */
  readonly groups: readonly GroupModel[];
  /** Questions with a visibility rule (the only ones worth re-checking as answers change). */
  readonly conditionalQuestions: readonly QuestionModel[];
}

export const fieldOf = (model: FormModel, schemaKey: string, fieldKey: string): FieldModel | undefined =>
  model.fieldById.get(fieldKeyOf(schemaKey, fieldKey));

/** A field's own words (its kind, keys, labels and help texts), which say what its codes are codes of. */
const aboutField = (source: Question, field: QuestionField): string =>
  [source.kind, source.schema_key, field.field_key, source.label, field.label, source.help_text, field.help_text].join(' ');

function optionsFor(widget: Widget, facts: SchemaFacts, source: Question, field: QuestionField): FieldOption[] | null {
  if (widget !== 'radio' && widget !== 'select' && widget !== 'checkbox-group') return null;
  // The field's help text is closest to the options; the question's is the usual place for the list.
  const fromHelp = new Map<string, string>();
  for (const text of [field.help_text, source.help_text]) for (const [k, v] of labelsFromHelpText(text)) if (!fromHelp.has(k)) fromHelp.set(k, v);
  const choices = facts.choices ?? [];
  const sources = { fromSchema: labelsFromSchema(field.value_schema), fromHelp, codes: codeKindOf(choices, aboutField(source, field)) };
  const seen = new Set<string>();
  const options: FieldOption[] = [];
  for (const choice of choices) {
    const value = String(choice);
    if (seen.has(value)) continue;
    seen.add(value);
    options.push({ value, label: optionLabel(choice, sources), answer: choice });
  }
  return options;
}

/**
 * value_schema compiled on first use: a 1,000-field form needs its model at once to render, but most
 * fields are only validated when someone types in them (or at submit), so page load does not pay for all.
 */
function lazyValidator(schema: ValueSchema): ValueValidator {
  let compiled: ValueValidator | undefined;
  return (value) => (compiled ??= compileValueSchema(schema))(value);
}

function layoutOf(question: Question): QuestionLayout {
  if (question.fields.length <= 1) return 'single';
  if (question.kind === 'address') return 'address';
  const addressLike = question.fields.filter((f) => ADDRESS_FIELD_KEYS.has(f.field_key.toLowerCase())).length;
  return addressLike >= 2 ? 'address' : 'fieldset';
}

interface MutableQuestion extends Omit<QuestionModel, 'fields'> {
  fields: FieldModel[];
}

function buildField(
  question: MutableQuestion,
  source: Question,
  field: QuestionField,
  groupKey: string | null,
): FieldModel {
  const facts = schemaFacts(field.value_schema);
  const chosen = chooseWidget(source.kind, source.answer_shape, facts);
  // A two-letter country code is picked from the countries by name, not typed.
  const countryCase = chosen === 'text' ? countryCodeCase(facts, aboutField(source, field)) : null;
  const widget: Widget = countryCase ? 'select' : chosen;
  const multiField = source.fields.length > 1;
  const autoComplete = autocompleteFor(widget, source.schema_key, field.field_key, multiField);
  const options = countryCase ? countryOptions(countryCase) : optionsFor(widget, facts, source, field);
  return {
    id: fieldKeyOf(source.schema_key, field.field_key),
    blockKey: source.block_key,
    schemaKey: source.schema_key,
    fieldKey: field.field_key,
    groupKey,
    name: groupKey === null ? answerName(source.block_key, source.schema_key, field.field_key) : null,
    label: field.label,
    helpText: field.help_text,
    required: source.is_required && field.is_required,
    hint: exampleHint(field.example, widget),
    widget,
    attributes: inputAttributes(widget, facts, autoComplete),
    textLimit: textLimitOf(widget, facts),
    options,
    maxFiles: widget === 'file' ? facts.maxItems : undefined,
    // Files are uploaded, other answers updated: whichever operation the field needs must be allowed.
    readOnly: !source.answer_operations.includes(widget === 'file' ? 'upload' : 'update'),
    valueSchema: field.value_schema,
    facts,
    validate: lazyValidator(field.value_schema),
    question,
  };
}

function buildQuestion(source: Question, groupKey: string | null): QuestionModel {
  const ops = Array.isArray(source.answer_operations) ? source.answer_operations : [];
  const question: MutableQuestion = {
    blockKey: source.block_key,
    schemaKey: source.schema_key,
    sectionKey: source.section_key,
    groupKey,
    kind: source.kind,
    label: source.label,
    helpText: source.help_text,
    isRequired: source.is_required,
    answerShape: source.answer_shape,
    order: source.order,
    layout: layoutOf(source),
    canUpdate: ops.includes('update'),
    canUpload: ops.includes('upload'),
    canDelete: ops.includes('delete'),
    visibility: source.visibility,
    isVisible: compileVisibility(source.visibility),
    dependsOn: visibilityDependencies(source.visibility),
    fields: [],
  };
  const normalized = { ...source, answer_operations: ops };
  for (const field of source.fields ?? []) question.fields.push(buildField(question, normalized, field, groupKey));
  return question;
}

const byOrder = <T extends { order: number }>(a: T, b: T): number => a.order - b.order;

/** The position of a group among its siblings: where its first question is. */
function groupOrder(questions: readonly QuestionModel[], children: readonly GroupModel[]): number {
  let order = Number.POSITIVE_INFINITY;
  for (const q of questions) order = Math.min(order, q.order);
  for (const c of children) order = Math.min(order, groupOrder(c.questions, c.children));
  return order;
}

interface GroupDraft {
  source: RepeatableGroup;
  questions: QuestionModel[];
  childKeys: string[];
}

/**
 * Groups with their questions and children. A parent that does not exist, or a cycle of parents, would
 * hide a group forever; such a group is placed at the top level of its section instead.
 */
function buildGroups(contract: FormContract, questionsByGroup: Map<string, QuestionModel[]>) {
  const drafts = new Map<string, GroupDraft>();
  for (const g of contract.repeatable_groups) {
    if (drafts.has(g.block_key)) continue;
    const questions = (questionsByGroup.get(g.block_key) ?? []).sort(byOrder);
    drafts.set(g.block_key, { source: g, questions, childKeys: [] });
  }
  const parentOf = (key: string): string | null => {
    const parent = drafts.get(key)?.source.parent_block_key ?? null;
    if (parent === null || !drafts.has(parent)) return null;
    // Walk up; a cycle back to `key` means the parent chain cannot be trusted.
    const seen = new Set([key]);
    for (let at: string | null = parent; at !== null; at = drafts.get(at)?.source.parent_block_key ?? null) {
      if (seen.has(at)) return null;
      seen.add(at);
      if (!drafts.has(at)) break;
    }
    return parent;
  };
  const roots: string[] = [];
  for (const key of drafts.keys()) {
    const parent = parentOf(key);
    if (parent === null) roots.push(key);
    else drafts.get(parent)?.childKeys.push(key);
  }
  const built = new Map<string, GroupModel>();
  const ordered: GroupModel[] = [];
  const build = (key: string, depth: number, parentBlockKey: string | null): GroupModel => {
    const draft = drafts.get(key) as GroupDraft;
    const children = draft.childKeys.map((c) => build(c, depth + 1, key));
    children.sort((a, b) => groupOrder(a.questions, a.children) - groupOrder(b.questions, b.children));
    const ops = Array.isArray(draft.source.item_operations) ? draft.source.item_operations : [];
    const group: GroupModel = {
      blockKey: key,
      label: humanize(key),
      sectionKey: draft.source.section_key,
      parentBlockKey,
      minItems: draft.source.min_items ?? null,
      maxItems: draft.source.max_items ?? null,
      canList: ops.includes('list'),
      canCreate: ops.includes('create'),
      canUpdate: ops.includes('update'),
      canDelete: ops.includes('delete'),
      depth,
      questions: draft.questions,
      fields: draft.questions.flatMap((q) => q.fields),
      children,
    };
    built.set(key, group);
    return group;
  };
  const rootGroups = roots.map((k) => build(k, 0, null));
  // Parents before children, for callers that walk groups top-down.
  const visit = (g: GroupModel) => {
    ordered.push(g);
    g.children.forEach(visit);
  };
  rootGroups.forEach(visit);
  return { rootGroups, built, ordered };
}

function compile(contract: FormContract): FormModel {
  const groupKeys = new Set(contract.repeatable_groups.map((g) => g.block_key));
  const questionsByGroup = new Map<string, QuestionModel[]>();
  const topQuestions: QuestionModel[] = [];
  const questionBySchemaKey = new Map<string, QuestionModel>();
  for (const source of contract.questions) {
    // As the sandbox reads it: a question is in a group when it says it repeats and its block is a group.
    const groupKey = source.is_repeatable && groupKeys.has(source.block_key) ? source.block_key : null;
    const question = buildQuestion(source, groupKey);
    if (!questionBySchemaKey.has(source.schema_key)) questionBySchemaKey.set(source.schema_key, question);
    if (groupKey === null) topQuestions.push(question);
    else questionsByGroup.set(groupKey, [...(questionsByGroup.get(groupKey) ?? []), question]);
  }
  const { rootGroups, built, ordered } = buildGroups(contract, questionsByGroup);

  // Sections in `order`; a question or group naming a section the contract lacks still gets one, at the end.
  const sectionSources = [...contract.sections].sort(byOrder);
  const known = new Set(sectionSources.map((s) => s.section_key));
  let lastOrder = sectionSources.reduce((m, s) => Math.max(m, s.order), 0);
  for (const key of [...topQuestions.map((q) => q.sectionKey), ...rootGroups.map((g) => g.sectionKey)]) {
    if (known.has(key)) continue;
    known.add(key);
    sectionSources.push({ section_key: key, label: humanize(key), order: ++lastOrder });
  }

  const entriesBySection = new Map<string, Array<SectionEntry & { order: number }>>();
  const addEntry = (sectionKey: string, entry: SectionEntry & { order: number }) => {
    const list = entriesBySection.get(sectionKey);
    if (list === undefined) entriesBySection.set(sectionKey, [entry]);
    else list.push(entry);
  };
  for (const question of topQuestions) {
    addEntry(question.sectionKey, { type: 'question', question, order: question.order });
  }
  for (const group of rootGroups) {
    addEntry(group.sectionKey, { type: 'group', group, order: groupOrder(group.questions, group.children) });
  }

  const sections: SectionModel[] = sectionSources.map((s) => {
    const entries = entriesBySection.get(s.section_key) ?? [];
    entries.sort(byOrder);
    return {
      sectionKey: s.section_key,
      label: s.label,
      order: s.order,
      entries: entries.map(({ order: _order, ...entry }) => entry as SectionEntry),
      fields: entries.flatMap((e) => (e.type === 'question' ? e.question.fields : [])),
      groups: entries.flatMap((e) => (e.type === 'group' ? [e.group] : [])),
    };
  });

  const topFields = sections.flatMap((s) => s.fields);
  const fieldById = new Map<string, FieldModel>();
  for (const q of questionBySchemaKey.values()) {
    for (const f of q.fields) if (!fieldById.has(f.id)) fieldById.set(f.id, f);
  }
  return {
    contractVersion: contract.contract_version,
    sections,
    topFields,
    topFieldByName: new Map(topFields.map((f) => [f.name as string, f])),
    fieldById,
    questionBySchemaKey,
    groupByKey: built,
    groups: ordered,
    conditionalQuestions: [...questionBySchemaKey.values()].filter((q) => q.dependsOn.length > 0),
  };
}

/**
 * The form model of a contract, compiled once per contract object. The contract of one contract_version
 * does not change, and the caller keeps the object it read (react-query's structural sharing keeps it
 * across refetches), so keying on the object is both safe and enough.
 */
export const formModel: (contract: FormContract) => FormModel = oncePerObject(compile);

/**
 * The field a form name is for: a top-level name must name the field's own block; an item name is
 * resolved by schema and field key (the item decides the group). undefined for anything else.
 */
export function fieldForName(model: FormModel, name: string): FieldModel | undefined {
  const top = model.topFieldByName.get(name);
  if (top !== undefined) return top;
  const parsed = parseName(name);
  if (parsed === null || parsed.scope !== 'item') return undefined;
  const field = model.fieldById.get(fieldKeyOf(parsed.schemaKey, parsed.fieldKey));
  return field !== undefined && field.groupKey !== null ? field : undefined;
}
