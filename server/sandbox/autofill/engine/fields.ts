import type { ValueSchema } from '@/lib/portal';
import { fold, humanizeKey, words } from './text';

/**
 * What the engine knows of a field it may fill: its labels and help (to match evidence by meaning), its
 * value_schema (to read values of the right type) and its current value. Built by the sandbox from any
 * contract; nothing here knows one.
 */
export interface TargetField {
  /** Unique among the fields of one call. */
  id: string;
  /** Fields of one question share it (an address is one question of several fields). */
  questionId: string;
  /** The question's kind (a hint: value_schema decides when the kind is unknown). */
  kind: string | null;
  sectionLabel: string;
  questionLabel: string;
  fieldLabel: string;
  questionHelp: string | null;
  fieldHelp: string | null;
  schemaKey: string;
  fieldKey: string;
  /** The repeatable group's label when the field belongs to an item. */
  groupLabel: string | null;
  valueSchema: ValueSchema;
  allowedValues: readonly string[];
  /** The question has several fields (an address). */
  multiField: boolean;
  currentValue: unknown;
  /** Contract order. */
  order: number;
  /** Issues with a value under the field's value_schema and the spec's limits (empty when valid). */
  validate(value: unknown): ReadonlyArray<{ code: string; message: string }>;
}

export type Reader =
  | 'boolean'
  | 'integer'
  | 'number'
  | 'money'
  | 'percent'
  | 'date'
  | 'datetime'
  | 'email'
  | 'url'
  | 'phone'
  | 'single'
  | 'multi'
  | 'list'
  | 'long_text'
  | 'text'
  | 'none';

export type AddressPart = 'line1' | 'line2' | 'city' | 'region' | 'postal_code' | 'country';
const ADDRESS_PARTS: readonly AddressPart[] = ['line1', 'line2', 'city', 'region', 'postal_code', 'country'];

/** The part of an address a field holds, by its key or its label. */
export function addressPartOf(f: TargetField): AddressPart | null {
  if ((ADDRESS_PARTS as readonly string[]).includes(f.fieldKey)) return f.fieldKey as AddressPart;
  const label = fold(`${f.fieldLabel} ${humanizeKey(f.fieldKey)}`);
  if (/\b(?:line 1|line one|street)\b/.test(label)) return 'line1';
  if (/\b(?:line 2|line two)\b/.test(label)) return 'line2';
  if (/\b(?:town|city)\b/.test(label)) return 'city';
  if (/\b(?:county|state|region|province)\b/.test(label)) return 'region';
  if (/\b(?:postcode|zip|postal)\b/.test(label)) return 'postal_code';
  if (/\bcountry\b/.test(label)) return 'country';
  return null;
}

const types = (s: ValueSchema) => (Array.isArray(s.type) ? s.type : s.type === undefined ? [] : [s.type]);

/** How values are read for a field: from its value_schema, with the kind as a hint. */
export function readerOf(f: TargetField): Reader {
  const s = f.valueSchema;
  const t = types(s).filter((x) => x !== 'null');
  const cue = fold(`${f.fieldLabel} ${f.questionLabel} ${humanizeKey(f.schemaKey)}`);
  if (t.includes('array') || (t.length === 0 && s.items)) {
    if (Array.isArray(s.items?.enum) && s.items.enum.length > 0) return 'multi';
    const it = s.items?.type;
    return it === undefined || it === 'string' || (Array.isArray(it) && it.includes('string')) ? 'list' : 'none';
  }
  if (t.includes('boolean')) {
    // A declaration that only "yes" satisfies is the person's to make, not the evidence's.
    return Array.isArray(s.enum) && s.enum.length === 1 ? 'none' : 'boolean';
  }
  if (t.includes('integer')) return 'integer';
  if (t.includes('number')) {
    if (f.kind === 'percent' || /\b(?:percent|percentage|margin|ownership|rate)\b/.test(cue)) return 'percent';
    if (f.kind === 'currency' || s.multipleOf === 0.01) return 'money';
    return 'number';
  }
  if (Array.isArray(s.enum) && s.enum.length > 0) return 'single';
  if (s.format === 'email' || f.kind === 'email') return 'email';
  if (s.format === 'uri' || f.kind === 'url') return 'url';
  if (s.format === 'date' || f.kind === 'date') return 'date';
  if (s.format === 'date-time') return 'datetime';
  if (f.kind === 'phone' || /\bphone\b/.test(words(cue).join(' '))) return 'phone';
  if (f.kind === 'long_text' || (s.maxLength ?? 0) > 1000) return 'long_text';
  return 'text';
}

/** Cue words with their weights: 1 for what names the field, less for help and surroundings. */
export function cuesOf(f: TargetField): Map<string, number> {
  const cues = new Map<string, number>();
  const add = (text: string | null | undefined, weight: number) => {
    if (!text) return;
    for (const w of words(text)) cues.set(w, Math.max(cues.get(w) ?? 0, weight));
  };
  add(f.fieldLabel, 1);
  if (f.fieldKey !== 'value' && f.fieldKey !== 'files') add(humanizeKey(f.fieldKey), 1);
  // A field of a several-field question is named by its own label; the question only sets the scene.
  add(f.questionLabel, f.multiField ? 0.4 : 1);
  add(humanizeKey(f.schemaKey), f.multiField ? 0.4 : 1);
  add(f.fieldHelp, 0.35);
  add(f.questionHelp, 0.35);
  add(f.groupLabel, 0.5);
  add(f.sectionLabel, 0.25);
  return cues;
}

/** Cues of a whole question (for an address given on one line). */
export function questionCuesOf(f: TargetField): Map<string, number> {
  const cues = new Map<string, number>();
  const add = (text: string | null | undefined, weight: number) => {
    if (!text) return;
    for (const w of words(text)) cues.set(w, Math.max(cues.get(w) ?? 0, weight));
  };
  add(f.questionLabel, 1);
  add(humanizeKey(f.schemaKey), 1);
  add(f.questionHelp, 0.35);
  add(f.groupLabel, 0.5);
  add(f.sectionLabel, 0.25);
  return cues;
}
