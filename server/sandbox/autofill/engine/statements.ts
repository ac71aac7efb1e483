import { clip } from './text';
import { looksLikeCompany, readPersonName } from './values';

/**
 * A document read as statements: "Key: value" lines, headings with the paragraph under them, and what a few
 * phrasings imply ("X Ltd, trading as Y"; "Contact: Jo Bloggs (Owner)"). Lines that are none of these are
 * kept as sentences, where typed values (amounts, dates, emails...) are looked for with the words around them.
 */

export type StatementRule = 'key_value' | 'heading' | 'trading_as' | 'person_role';

export interface Statement {
  doc: number;
  line: number;
  key: string;
  value: string;
  /** The line (or heading and paragraph) the statement comes from, at most 300 characters. */
  excerpt: string;
  /** How far the statement is from what the document literally says: 1 for a written "Key: value". */
  factor: number;
  rule: StatementRule;
}

export interface Sentence {
  doc: number;
  line: number;
  text: string;
  excerpt: string;
}

const KEY_VALUE = /^([^:]{2,60}?)\s*:\s+(\S.*)$/;
const HEADING = /^(?:#{1,6}\s*)?([^:#]{2,60}?):?\s*$/;
const BULLET = /^(?:[-*•·]|\d{1,2}[.)])\s+/;

function isKey(key: string) {
  if (!/\p{L}/u.test(key)) return false;
  if (/(?:https?|mailto|ftp)$/i.test(key)) return false;
  return key.trim().split(/\s+/).length <= 8;
}

const TRADING_AS = /(?:\(\s*|,\s*|\s)(?:trading as|t\/a|dba|doing business as)\s+["“]?([^,;()"”]+?)["”]?\s*(?=\)|,|;|\.(?:\s|$)|\s+(?:is|was|are|has|have|and|which|who)\b|$)/i;
const NAME_JOINERS = new Set(['&', 'and', 'of', 'the', 'for']);

/** "X Ltd, trading as Y" → the legal name X (when it is one) and the trading name Y. */
export function tradingAs(text: string, wholeIsName: boolean): { legal?: string; trading: string } | null {
  const m = TRADING_AS.exec(text);
  if (!m) return null;
  const trading = m[1]!.trim();
  if (!trading || trading.length > 120) return null;
  const before = text.slice(0, m.index).trim().replace(/[,(]+$/, '').trim();
  if (wholeIsName && before) return { legal: before, trading };
  // In a sentence: the capitalised words that end at the marker, when they end in a company suffix.
  const words = before.split(/\s+/);
  const kept: string[] = [];
  for (let i = words.length - 1; i >= 0; i--) {
    const w = words[i]!;
    if (/^[\p{Lu}\d]/u.test(w) || NAME_JOINERS.has(w.toLowerCase())) kept.unshift(w);
    else break;
  }
  while (kept.length > 0 && NAME_JOINERS.has(kept[0]!.toLowerCase())) kept.shift();
  const legal = kept.join(' ');
  return legal && looksLikeCompany(legal) ? { legal, trading } : { trading };
}

const PERSON_ROLE = /^(.+?)\s*(?:\(([^)]+)\)|,\s*(.+)|\s+[–—-]\s+(.+))$/;

/** "Jo Bloggs (Owner)", "Jo Bloggs, Finance director" → the person and the role. */
export function personWithRole(value: string): { person: string; role: string } | null {
  const m = PERSON_ROLE.exec(value.trim());
  if (!m) return null;
  const person = readPersonName(m[1]!);
  const role = (m[2] ?? m[3] ?? m[4] ?? '').trim();
  if (!person || !role || role.length > 60 || /[\d@]/.test(role)) return null;
  return { person, role };
}

export function readStatements(text: string, doc: number): { statements: Statement[]; sentences: Sentence[] } {
  const lines = text.split('\n');
  const statements: Statement[] = [];
  const sentences: Sentence[] = [];
  const addSentences = (line: string, index: number) => {
    for (const s of line.split(/(?<=[.!?])\s+(?=[\p{Lu}\d£$€"“])/u)) {
      const t = s.trim();
      if (t) sentences.push({ doc, line: index, text: t, excerpt: clip(t) });
    }
  };
  const addDerived = (key: string | null, value: string, line: number, excerpt: string) => {
    const ta = tradingAs(value, key !== null);
    if (ta) {
      if (ta.legal) statements.push({ doc, line, key: 'legal business name', value: ta.legal, excerpt, factor: 0.9, rule: 'trading_as' });
      statements.push({ doc, line, key: 'trading name', value: ta.trading, excerpt, factor: 0.9, rule: 'trading_as' });
    }
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim().replace(BULLET, '');
    if (!line) continue;
    const kv = KEY_VALUE.exec(line);
    if (kv && isKey(kv[1]!)) {
      const key = kv[1]!.trim();
      const value = kv[2]!.trim();
      const excerpt = clip(line);
      const pr = personWithRole(value);
      const keyWords = key.toLowerCase();
      const ta = tradingAs(value, true);
      if (ta?.legal) {
        // "Legal name: X Ltd (trading as Y)": the value is X, and Y is the trading name.
        statements.push({ doc, line: i, key, value: ta.legal, excerpt, factor: 1, rule: 'key_value' });
        statements.push({ doc, line: i, key: 'trading name', value: ta.trading, excerpt, factor: 0.9, rule: 'trading_as' });
        continue;
      }
      if (pr && !/\b(?:role|title|position)\b/.test(keyWords)) {
        statements.push({ doc, line: i, key: /\bname\b/.test(keyWords) ? key : `${key} name`, value: pr.person, excerpt, factor: 1, rule: 'person_role' });
        statements.push({ doc, line: i, key: `${key.replace(/\bname\b/i, '').trim()} role`, value: pr.role, excerpt, factor: 0.9, rule: 'person_role' });
      } else {
        statements.push({ doc, line: i, key, value, excerpt, factor: 1, rule: 'key_value' });
      }
      addDerived(key, value, i, excerpt);
      // A long value is prose too: amounts and dates in it are found with the words around them.
      if (value.split(/\s+/).length > 12) addSentences(value, i);
      continue;
    }
    const heading = HEADING.exec(line);
    const next = lines[i + 1]?.trim() ?? '';
    if (heading && (line.endsWith(':') || line.startsWith('#')) && next && !KEY_VALUE.exec(next)) {
      const paragraph: string[] = [];
      let j = i + 1;
      for (; j < lines.length; j++) {
        const l = lines[j]!.trim();
        if (!l || (KEY_VALUE.exec(l) && isKey(KEY_VALUE.exec(l)![1]!)) || l.startsWith('#')) break;
        paragraph.push(l);
      }
      const value = paragraph.join(' ');
      statements.push({ doc, line: i, key: heading[1]!.trim(), value, excerpt: clip(`${heading[1]!.trim()}: ${value}`), factor: 1, rule: 'heading' });
      for (let k = i + 1; k < j; k++) {
        addSentences(lines[k]!.trim(), k);
        addDerived(null, lines[k]!.trim(), k, clip(lines[k]!.trim()));
      }
      i = j - 1;
      continue;
    }
    addSentences(line, i);
    addDerived(null, line, i, clip(line));
  }
  return { statements, sentences };
}
