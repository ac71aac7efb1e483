/**
 * Labels the contract does not spell out: group labels from block keys, and option labels for enum values.
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
 * Phrases of a help text that reads like a list of the options, e.g. "Sole trader, partnership, limited
 * company, LLP or other." or "Choose all that apply: working capital, equipment, other." The contract's
 * authors wrote these for people, so where a phrase names an option it is a better label than any we make
 * up (it knows "LLP" and "Non-profit").
 */
function listedPhrases(helpText: string): string[] {
  // Only what follows a lead-in such as "Choose all that apply:" is the list.
  const colon = helpText.lastIndexOf(':');
  const list = (colon >= 0 ? helpText.slice(colon + 1) : helpText).replace(/[.!]\s*$/, '');
  return list
    .split(/\s*[,;]\s*|\s+(?:or|and)\s+/i)
    .map((p) => p.replace(/^(?:or|and)\s+/i, '').trim())
    .filter((p) => p !== '');
}

/** Labels by normalized phrase, from a help text; empty when there is no help text. */
export function labelsFromHelpText(helpText: string | null): ReadonlyMap<string, string> {
  const labels = new Map<string, string>();
  if (helpText === null) return labels;
  for (const phrase of listedPhrases(helpText)) {
    const key = normalize(phrase);
    if (key !== '' && !labels.has(key)) labels.set(key, capitalize(phrase));
  }
  return labels;
}

/** The label of one enum value: the help text's own wording when it names the value, else the value humanized. */
export function optionLabel(value: string | number | boolean, fromHelp: ReadonlyMap<string, string>): string {
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  const text = String(value);
  return fromHelp.get(normalize(text)) ?? (typeof value === 'number' ? text : humanize(text));
}
