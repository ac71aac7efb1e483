/**
 * Labels the contract does not spell out: group labels from block keys, and option labels for enum values.
 * A choice reads as the contract names it wherever it does (a title in value_schema, or the help text's own
 * wording, codes in the case the contract writes them: "GBP"); codes nobody reads as they are (ISO 4217
 * currencies, ISO 3166 regions) by their names; anything else humanized.
 */

/** "owner_addresses" → "Owner addresses", "limited-company" → "Limited company". */
export function humanize(key: string): string {
  const spaced = key
    .replace(/[_-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (spaced === '') return key;
  return spaced.charAt(0).toUpperCase() + spaced.slice(1).toLowerCase();
}

const capitalize = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** Letters and digits only, lower case: "Non-profit" and "nonprofit" meet, as do "sole trader" and "sole_trader". */
const normalize = (text: string): string => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/**
 * Phrases of a help text, any of which may name an option, e.g. "Sole trader, partnership, limited company,
 * LLP or other.", "Choose all that apply: working capital, equipment, other." or "GBP, EUR or USD: funders
 * lend in one currency per product." The contract's authors wrote these for people, so where a phrase names
 * an option it is a better label than any we make up (it knows "LLP", "Non-profit" and "GBP"). The list may
 * stand before a colon or after it, so every clause is read; a phrase that names no option is never used.
 */
function helpPhrases(helpText: string): string[] {
  return helpText
    .split(/\s*:\s*|[.!?;](?:\s+|$)/)
    .flatMap((clause) => clause.split(/\s*,\s*|\s+(?:or|and)\s+/i))
    .map((p) => p.replace(/^(?:or|and)\s+/i, '').trim())
    .filter((p) => p !== '');
}

/** Labels by normalized phrase, from a help text; empty when there is no help text. */
export function labelsFromHelpText(helpText: string | null): ReadonlyMap<string, string> {
  const labels = new Map<string, string>();
  if (helpText === null) return labels;
  for (const phrase of helpPhrases(helpText)) {
    const key = normalize(phrase);
    if (key !== '' && !labels.has(key)) labels.set(key, capitalize(phrase));
  }
  return labels;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Labels value_schema gives its choices, JSON Schema's way: `oneOf` / `anyOf` entries `{ const, title }`
 * (on a list's `items` for a list), by the value as text.
 */
export function labelsFromSchema(schema: unknown): ReadonlyMap<string, string> {
  const labels = new Map<string, string>();
  if (!isObject(schema)) return labels;
  const scopes = [schema, ...(isObject(schema.items) ? [schema.items] : [])];
  for (const scope of scopes) {
    for (const list of [scope.oneOf, scope.anyOf]) {
      if (!Array.isArray(list)) continue;
      for (const entry of list) {
        if (!isObject(entry) || !('const' in entry) || typeof entry.title !== 'string' || entry.title.trim() === '') continue;
        const key = String(entry.const);
        if (!labels.has(key)) labels.set(key, entry.title.trim());
      }
    }
  }
  return labels;
}

/** Kinds of codes a choice list may hold that people read by name. */
export type CodeKind = 'currency' | 'region';

const displayNames = new Map<CodeKind, Intl.DisplayNames | null>();
/** English names of a kind of code; null where the runtime has no Intl.DisplayNames. */
function namesOf(kind: CodeKind): Intl.DisplayNames | null {
  if (!displayNames.has(kind)) {
    let names: Intl.DisplayNames | null = null;
    try {
      names = new Intl.DisplayNames(['en-GB'], { type: kind, fallback: 'none' });
    } catch {
      names = null;
    }
    displayNames.set(kind, names);
  }
  return displayNames.get(kind) ?? null;
}

/** The English name of an ISO code of the kind, or undefined when it is not one. */
export function codeName(kind: CodeKind, code: string): string | undefined {
  const shape = kind === 'currency' ? /^[A-Za-z]{3}$/ : /^[A-Za-z]{2}$/;
  if (!shape.test(code)) return undefined;
  try {
    return namesOf(kind)?.of(code.toUpperCase()) ?? undefined;
  } catch {
    return undefined;
  }
}

const CODE_WORDS: Record<CodeKind, RegExp> = { currency: /currenc/i, region: /countr|nationality/i };

/**
 * Whether a field's choices are codes of a kind: every value is one, and the field says what it is about
 * (`about`: its kind, keys, labels and help text), so that "usd" in a list of abbreviations is not taken
 * for a currency by accident.
 */
export function codeKindOf(values: readonly (string | number | boolean)[], about: string): CodeKind | null {
  if (values.length === 0) return null;
  for (const kind of ['currency', 'region'] as const) {
    if (CODE_WORDS[kind].test(about) && values.every((v) => typeof v === 'string' && codeName(kind, v) !== undefined)) return kind;
  }
  return null;
}

export interface OptionLabelSources {
  /** value_schema's own titles, by the value as text (labelsFromSchema). */
  readonly fromSchema?: ReadonlyMap<string, string>;
  /** Phrases of the help texts, by normalized phrase (labelsFromHelpText). */
  readonly fromHelp: ReadonlyMap<string, string>;
  /** What the values are codes of, when they are (codeKindOf). */
  readonly codes?: CodeKind | null;
}

/**
 * The label of one enum value: the schema's title for it, else the help text's wording when it names the
 * value, else the name of the code it is (with the code: "Pound sterling (GBP)"), else the value humanized.
 */
export function optionLabel(value: string | number | boolean, { fromSchema, fromHelp, codes }: OptionLabelSources): string {
  const text = String(value);
  const titled = fromSchema?.get(text);
  if (titled !== undefined) return titled;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  const helped = fromHelp.get(normalize(text));
  if (helped !== undefined) return helped;
  const named = codes ? codeName(codes, text) : undefined;
  if (named !== undefined) return `${named} (${text.toUpperCase()})`;
  return typeof value === 'number' ? text : humanize(text);
}
