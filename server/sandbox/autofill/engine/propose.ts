import type { AnswerValue } from '@/lib/portal';
import { addressPartOf, cuesOf, questionCuesOf, readerOf, type AddressPart, type Reader, type TargetField } from './fields';
import { readStatements, type Sentence, type Statement } from './statements';
import { clip, fold, rawWords, words } from './text';
import {
  findDates,
  findEmails,
  findNumbers,
  findPhones,
  findUrls,
  parseAddress,
  readBoolean,
  readInteger,
  readMultiChoice,
  readNumber,
  readPersonName,
  readSingleChoice,
  readUrl,
  type AddressParts,
} from './values';

/**
 * The Autofill engine: deterministic rules that read evidence and propose values for a contract's fields.
 *
 * 1. Each document is read as statements ("Key: value", heading + paragraph, implied ones) and sentences.
 * 2. A statement's key is compared with every field's labels, key and help: canonical words weighted by how
 *    rare they are among the contract's fields (so "accountant" tells more than "email"). The value must read
 *    as the field's type (an amount for a currency field, one of the allowed values for a choice...).
 *    Each statement goes to the one field (or, for an address, the one question) it fits best.
 * 3. In sentences, typed values (amounts with a currency, dates, emails, phone numbers, web addresses,
 *    percentages, counts next to their noun) go to the field whose words surround them.
 * 4. Per field the most confident candidate wins; agreeing sources raise confidence, disagreeing ones
 *    add a conflicting_evidence concern; a value that fails the field's value_schema is still proposed, with
 *    an outside_schema concern. A value equal to the current answer is not proposed.
 */

export interface EvidenceDoc {
  id: string;
  kind: 'text' | 'file';
  name: string | null;
  text: string;
}

export type ConcernCode = 'low_confidence' | 'conflicting_evidence' | 'outside_schema' | 'ambiguous_value';

export interface Concern {
  code: ConcernCode;
  message: string;
}

export interface Proposal {
  fieldId: string;
  value: AnswerValue;
  /** 0 to 1. */
  confidence: number;
  source: { docId: string; kind: 'text' | 'file'; name: string | null; excerpt: string };
  concerns: Concern[];
}

/** Below this a candidate is not proposed; below LOW it is proposed with a low_confidence concern. */
export const MIN_CONFIDENCE = 0.5;
export const LOW_CONFIDENCE = 0.7;
/** The most a value read from a sentence (rather than a labelled line) can score. */
const SENTENCE_CONFIDENCE = 0.69;

interface Profile {
  field: TargetField;
  reader: Reader;
  cues: Map<string, number>;
  coreTotal: number;
  part: AddressPart | null;
  maxLength: number;
  nameLike: 'person' | 'business' | null;
}

interface AddressProfile {
  questionId: string;
  fields: Array<{ profile: Profile; part: AddressPart }>;
  cues: Map<string, number>;
  coreTotal: number;
  scoped: boolean;
}

interface Candidate {
  value: AnswerValue;
  confidence: number;
  doc: number;
  line: number;
  excerpt: string;
  ambiguity?: string;
  /** A guess by type alone (an email with no word around it naming a field): never a conflict on its own. */
  weak?: boolean;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

class Idf {
  private readonly df = new Map<string, number>();
  constructor(private readonly n: number) {}
  count(words: Iterable<string>) {
    for (const w of new Set(words)) this.df.set(w, (this.df.get(w) ?? 0) + 1);
  }
  /** Rare cue words weigh more; a word no field uses weighs 1 (it only dilutes a key). */
  of(word: string) {
    const df = this.df.get(word);
    return df ? Math.log(1 + this.n / df) : 1;
  }
  /** A word that names only a few fields: enough on its own to say which field a value in a sentence is for. */
  distinctive(word: string) {
    const df = this.df.get(word);
    return df !== undefined && df <= Math.max(3, Math.ceil(this.n / 20));
  }
}

const isScoped = (f: TargetField) => f.groupLabel !== null;

function nameLikeOf(f: TargetField, cues: Map<string, number>): Profile['nameLike'] {
  if ((cues.get('name') ?? 0) < 1) return null;
  return cues.get('business') === 1 || cues.get('legal') === 1 || cues.get('trading') === 1 ? 'business' : 'person';
}

/** The value of a statement read as the field's type, with how well it fits (0-1), or undefined. */
function readFor(p: Profile, raw: string, keyText: string): { value: AnswerValue; fit: number; ambiguity?: string } | undefined {
  const text = raw.trim();
  if (!text) return undefined;
  switch (p.reader) {
    case 'boolean': {
      const b = readBoolean(text);
      return b === undefined ? undefined : { value: b, fit: 1 };
    }
    case 'integer': {
      const n = readInteger(text);
      if (n === undefined) return undefined;
      return { value: n, fit: /^[\d,]+$/.test(text) ? 1 : 0.95 };
    }
    case 'number':
    case 'money':
    case 'percent': {
      const found = readNumber(text);
      if (!found) return undefined;
      if (p.reader === 'money' && found.percent) return undefined;
      if (p.reader !== 'percent' && found.percent) return undefined;
      let value = found.value;
      // "Net loss: £12,000" is a negative profit.
      if (value > 0 && /\b(?:loss|losses|deficit)\b/i.test(keyText)) value = -value;
      const fit = p.reader === 'money' && !found.currency && !found.marked ? 0.95 : 1;
      return { value, fit };
    }
    case 'date':
    case 'datetime': {
      const d = findDates(text)[0];
      if (!d) return undefined;
      return { value: p.reader === 'date' ? d.value : `${d.value}T00:00:00Z`, fit: 1, ...(d.ambiguity ? { ambiguity: d.ambiguity } : {}) };
    }
    case 'email': {
      const e = findEmails(text)[0];
      return e ? { value: e.value, fit: 1 } : undefined;
    }
    case 'url': {
      const u = readUrl(text);
      return u ? { value: u, fit: 1 } : undefined;
    }
    case 'phone': {
      const ph = findPhones(text, true)[0];
      return ph ? { value: ph.value, fit: 1 } : undefined;
    }
    case 'single': {
      const c = readSingleChoice(text, p.field.allowedValues);
      return c ? { value: c.value, fit: c.exact ? 1 : 0.9 } : undefined;
    }
    case 'multi': {
      const values = readMultiChoice(text, p.field.allowedValues);
      return values.length > 0 ? { value: values, fit: 1 } : undefined;
    }
    case 'list': {
      const items = text
        .split(/\s*(?:[,;]|\band\b)\s*/)
        .map((s) => s.trim())
        .filter(Boolean);
      return items.length > 0 ? { value: items, fit: 0.85 } : undefined;
    }
    case 'long_text':
      return { value: text, fit: text.length >= 40 ? 1 : 0.6 };
    case 'text': {
      if (readBoolean(text) !== undefined && text.split(/\s+/).length <= 2) return { value: text, fit: 0.4 };
      if (p.part) return { value: text, fit: 0.85 };
      if (p.nameLike === 'person') return { value: text, fit: readPersonName(text) ? 0.95 : 0.6 };
      if (p.nameLike === 'business') {
        const nameish = /^[\p{Lu}\d]/u.test(text) && text.split(/\s+/).length <= 10 && !/[@]/.test(text);
        return { value: text, fit: nameish ? 0.95 : 0.5 };
      }
      return { value: text, fit: text.length <= p.maxLength ? 0.85 : 0.75 };
    }
    default:
      return undefined;
  }
}

function keyScore(keyWords: string[], cues: Map<string, number>, coreTotal: number, idf: Idf) {
  const unique = [...new Set(keyWords)];
  if (unique.length === 0 || coreTotal === 0) return 0;
  let keyTotal = 0;
  let matched = 0;
  let weighted = 0;
  for (const w of unique) {
    const weight = idf.of(w);
    keyTotal += weight;
    const cw = cues.get(w);
    if (cw !== undefined) {
      matched += weight * Math.min(1, cw + 0.3);
      weighted += weight * cw;
    }
  }
  if (matched === 0) return 0;
  // Mostly: how much of the key the field explains. A little: how much of the field the key names (which
  // tells two fields apart when a short key fits both).
  const keyCoverage = matched / keyTotal;
  const fieldCoverage = weighted / coreTotal;
  return keyCoverage ** 0.8 * (0.65 + 0.35 * Math.min(1, fieldCoverage * 2));
}

function coreTotalOf(cues: Map<string, number>, idf: Idf) {
  let t = 0;
  for (const [w, weight] of cues) if (weight >= 1) t += idf.of(w);
  return t;
}

const sameValue = (a: AnswerValue, b: AnswerValue) => {
  if (typeof a === 'string' && typeof b === 'string') return fold(a) === fold(b);
  if (Array.isArray(a) && Array.isArray(b)) return JSON.stringify([...a].map(String).sort()) === JSON.stringify([...b].map(String).sort());
  return JSON.stringify(a) === JSON.stringify(b);
};

const show = (v: AnswerValue) => (Array.isArray(v) ? v.join(', ') : String(v));

export interface ProposeOptions {
  /**
   * Every field of the contract, fillable or not (the fields of repeatable items Autofill does not target,
   * for example): used only to weigh words, so "Date of birth" is known to name a field even when that
   * field is not offered.
   */
  vocabulary?: readonly TargetField[];
}

export function proposeAnswers(docs: readonly EvidenceDoc[], fields: readonly TargetField[], options: ProposeOptions = {}): Proposal[] {
  const vocabulary = options.vocabulary ?? fields;
  const idf = new Idf(vocabulary.length);
  for (const f of vocabulary) idf.count([...cuesOf(f)].filter(([, w]) => w >= 1).map(([k]) => k));
  const profiles: Profile[] = fields.map((field) => {
    const cues = cuesOf(field);
    const reader = readerOf(field);
    const part = field.multiField ? addressPartOf(field) : null;
    return { field, reader, cues, coreTotal: 0, part, maxLength: field.valueSchema.maxLength ?? 255, nameLike: part ? null : nameLikeOf(field, cues) };
  });
  for (const p of profiles) p.coreTotal = coreTotalOf(p.cues, idf);
  const usable = profiles.filter((p) => p.reader !== 'none');

  // Several-field questions whose fields are the parts of an address.
  const addresses: AddressProfile[] = [];
  const byQuestion = new Map<string, Profile[]>();
  for (const p of usable) if (p.part) byQuestion.set(p.field.questionId, [...(byQuestion.get(p.field.questionId) ?? []), p]);
  for (const [questionId, ps] of byQuestion) {
    if (ps.length < 3) continue;
    const cues = questionCuesOf(ps[0]!.field);
    addresses.push({ questionId, fields: ps.map((profile) => ({ profile, part: profile.part! })), cues, coreTotal: coreTotalOf(cues, idf), scoped: isScoped(ps[0]!.field) });
  }

  const candidates = new Map<string, Candidate[]>();
  const add = (fieldId: string, c: Candidate) => candidates.set(fieldId, [...(candidates.get(fieldId) ?? []), c]);
  // Fields of repeatable items yield to top-level fields when a key fits both equally.
  const scopeFactor = (scoped: boolean) => (scoped ? 0.9 : 1);

  const read = docs.map((d, i) => readStatements(d.text, i));

  /* Statements: each goes to the field (or address question) it fits best. */
  for (const { statements } of read) {
    for (const st of statements) {
      const keyWords = words(st.key);
      let best: { conf: number; apply: () => void } | null = null;
      for (const p of usable) {
        const score = keyScore(keyWords, p.cues, p.coreTotal, idf);
        if (score <= 0) continue;
        const r = readFor(p, st.value, st.key);
        if (!r) continue;
        const conf = score * r.fit * st.factor * scopeFactor(isScoped(p.field));
        if (!best || conf > best.conf) {
          best = {
            conf,
            apply: () => add(p.field.id, { value: r.value, confidence: conf, doc: st.doc, line: st.line, excerpt: st.excerpt, ...(r.ambiguity ? { ambiguity: r.ambiguity } : {}) }),
          };
        }
      }
      const parts = parseAddress(st.value);
      if (parts) {
        for (const a of addresses) {
          const score = keyScore(keyWords, a.cues, a.coreTotal, idf);
          if (score <= 0) continue;
          const conf = score * st.factor * scopeFactor(a.scoped);
          if (!best || conf > best.conf) best = { conf, apply: () => addAddress(a, parts, conf, st) };
        }
      }
      if (best && best.conf >= MIN_CONFIDENCE) best.apply();
    }
  }

  function addAddress(a: AddressProfile, parts: AddressParts, conf: number, st: Statement) {
    for (const { profile, part } of a.fields) {
      let value: string | undefined = parts[part];
      if (part === 'country' && parts.country) {
        const s = profile.field.valueSchema;
        const wantsCode = s.maxLength === 2 || (typeof s.pattern === 'string' && /\{2\}/.test(s.pattern));
        value = wantsCode ? parts.country : (parts.country_name ?? parts.country);
      }
      if (value) add(profile.field.id, { value, confidence: conf, doc: st.doc, line: st.line, excerpt: st.excerpt });
    }
  }

  /* Sentences: typed values go to the field named by the words around them. */
  for (const { sentences } of read) for (const s of sentences) scanSentence(s);

  function scanSentence(s: Sentence) {
    type Typed = { start: number; end: number; readers: Reader[]; value: (r: Reader) => AnswerValue; ambiguity?: string; adjacent?: boolean };
    const found: Typed[] = [];
    for (const d of findDates(s.text)) found.push({ ...d, readers: ['date', 'datetime'], value: (r) => (r === 'date' ? d.value : `${d.value}T00:00:00Z`) });
    for (const e of findEmails(s.text)) found.push({ ...e, readers: ['email'], value: () => e.value });
    for (const u of findUrls(s.text)) found.push({ ...u, readers: ['url'], value: () => u.value });
    for (const ph of findPhones(s.text)) if (!found.some((f) => ph.start < f.end && ph.end > f.start)) found.push({ ...ph, readers: ['phone'], value: () => ph.value });
    for (const n of findNumbers(s.text)) {
      if (found.some((f) => n.start < f.end && n.end > f.start)) continue;
      if (n.percent) found.push({ ...n, readers: ['percent'], value: () => n.value });
      else if (n.currency || n.marked) found.push({ ...n, readers: ['money', 'number'], value: () => n.value });
      else if (Number.isInteger(n.value) && !(n.bare && n.value >= 1900 && n.value <= 2100)) {
        found.push({ ...n, readers: ['integer'], value: () => n.value, adjacent: true });
      }
    }
    if (found.length === 0) return;
    for (const f of found) {
      // The words around the value (eight either side), or for a bare count only its neighbours.
      const before = rawWords(s.text.slice(0, f.start));
      const after = rawWords(s.text.slice(f.end));
      const reach = f.adjacent ? 2 : 8;
      const near = [...before.slice(-reach), ...after.slice(0, reach)];
      const context = new Set(words(near.join(' ')));
      // Contact details are recognisable by their form; other values need a word that names their field.
      const selfEvident = f.readers.includes('email') || f.readers.includes('url') || f.readers.includes('phone');
      let best: { p: Profile; conf: number } | null = null;
      for (const p of usable) {
        if (!f.readers.includes(p.reader)) continue;
        let weighted = 0;
        let named = false;
        for (const w of context) {
          const cw = p.cues.get(w);
          if (cw === undefined) continue;
          weighted += idf.of(w) * cw;
          if (cw >= 1 && (selfEvident || idf.distinctive(w))) named = true;
        }
        if (!named) continue;
        // A value in a sentence is never more than a low-confidence reading on its own (at most 0.69).
        const conf = SENTENCE_CONFIDENCE * (0.6 + 0.4 * Math.min(1, (weighted / p.coreTotal) * 1.6)) * scopeFactor(isScoped(p.field));
        if (!best || conf > best.conf) best = { p, conf };
      }
      let weak = false;
      if (!best && selfEvident) {
        // No word names a field: the first field of the type, as a guess.
        const first = usable.find((p) => f.readers.includes(p.reader) && !isScoped(p.field));
        if (first) best = { p: first, conf: MIN_CONFIDENCE + 0.05 };
        weak = true;
      }
      if (best && best.conf >= MIN_CONFIDENCE) {
        let value = f.value(best.p.reader);
        // "a net loss of £35,000" is a negative profit.
        if (typeof value === 'number' && value > 0 && before.slice(-reach).some((w) => /^(?:loss|losses|deficit)$/.test(w))) value = -value;
        add(best.p.field.id, {
          value,
          confidence: best.conf,
          doc: s.doc,
          line: s.line,
          excerpt: s.excerpt,
          ...(f.ambiguity ? { ambiguity: f.ambiguity } : {}),
          ...(weak ? { weak } : {}),
        });
      }
    }
  }

  /* One proposal per field. */
  const proposals: Proposal[] = [];
  for (const p of profiles) {
    const list = candidates.get(p.field.id);
    if (!list || list.length === 0) continue;
    const sorted = [...list].sort((a, b) => b.confidence - a.confidence || a.doc - b.doc || a.line - b.line);
    const top = sorted[0]!;
    if (p.field.currentValue !== null && p.field.currentValue !== undefined && sameValue(top.value, p.field.currentValue as AnswerValue)) continue;
    const agreeing = new Set(sorted.filter((c) => c !== top && sameValue(c.value, top.value) && c.doc !== top.doc).map((c) => c.doc));
    const confidence = round2(Math.min(0.99, top.confidence + 0.05 * agreeing.size));
    const concerns: Concern[] = [];
    if (top.ambiguity) concerns.push({ code: 'ambiguous_value', message: top.ambiguity });
    const others: Candidate[] = [];
    for (const c of sorted) {
      if (c === top || c.weak || sameValue(c.value, top.value) || others.some((o) => sameValue(o.value, c.value))) continue;
      others.push(c);
    }
    if (others.length > 0) {
      const described = others
        .slice(0, 2)
        .map((c) => `“${clip(show(c.value), 80)}” in ${docs[c.doc]!.name ?? 'the text input'}`)
        .join(' and ');
      concerns.push({ code: 'conflicting_evidence', message: `The evidence disagrees: it also gives ${described}.` });
    }
    const issues = p.field.validate(top.value);
    if (issues.length > 0) {
      concerns.push({
        code: 'outside_schema',
        message: `The value found does not fit this field: ${issues.map((i) => i.message).join(' ')} Edit it before accepting.`,
      });
    }
    if (confidence < LOW_CONFIDENCE) concerns.push({ code: 'low_confidence', message: `Found with low confidence (${Math.round(confidence * 100)}%); check it against the source.` });
    const doc = docs[top.doc]!;
    proposals.push({
      fieldId: p.field.id,
      value: top.value,
      confidence,
      source: { docId: doc.id, kind: doc.kind, name: doc.name, excerpt: top.excerpt },
      concerns,
    });
  }
  const order = new Map(fields.map((f) => [f.id, f.order]));
  return proposals.sort((a, b) => order.get(a.fieldId)! - order.get(b.fieldId)!);
}
