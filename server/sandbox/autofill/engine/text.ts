/**
 * Words as the engine compares them: lower case, accents removed, a few multi-word phrases joined, stop words
 * dropped and synonyms folded onto one canonical word, so "Turnover" meets "Annual revenue" and "Tel." meets
 * "Phone number". The vocabulary is about business language, never about one contract's keys.
 */

/** Lower case, accents removed (café → cafe), anything but letters and digits turned into spaces. */
export function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[’']/g, '')
    .replace(/%/g, ' percent ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** Phrases read as one word before splitting (applied to folded text). */
const PHRASES: Array<[RegExp, string]> = [
  [/\be mail\b/g, 'email'],
  [/\bweb ?site\b/g, 'website'],
  [/\bhome ?page\b/g, 'website'],
  [/\b(?:zip|post|postal) code\b/g, 'postcode'],
  [/\b(?:tele)?phone number\b/g, 'phone'],
  [/\bmobile number\b/g, 'phone'],
  [/\bdate of birth\b/g, 'birth date'],
  [/\bdob\b/g, 'birth date'],
  [/\b(?:companies house|company|registered|registration|incorporation) (?:registration )?(?:number|no)\b/g, 'registration number'],
  [/\bcrn\b/g, 'registration number'],
  [/\bt a\b/g, 'trading'],
  [/\bdoing business as\b/g, 'trading'],
  [/\bfull time equivalents?\b/g, 'employees'],
  [/\bnon profit\b/g, 'nonprofit'],
  [/\bnot for profit\b/g, 'nonprofit'],
  [/\bper cent\b/g, 'percent'],
];

const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an the of or and to for in on at by with from into per as if is are was were be been being this that these those ' +
    'it its you your yours we our ours us i me my he she they them their there here than then so such any all each ' +
    'what which who whom whose how much many do does did done have has had can could will would should may might ' +
    'please only if not no yes also just about up out over under more most other others own same very e g eg ie etc ' +
    'include including includes example enter leave blank choose apply applies us uk'
  ).split(' '),
);

/** Synonyms folded onto one canonical word. */
const CANON_GROUPS: Record<string, string[]> = {
  employee: ['employee', 'employees', 'employ', 'employs', 'employed', 'employing', 'staff', 'staffing', 'headcount', 'workforce', 'people', 'fte', 'ftes', 'personnel', 'workers', 'team'],
  revenue: ['revenue', 'revenues', 'turnover', 'sales', 'takings', 'income'],
  profit: ['profit', 'profits', 'earnings', 'loss', 'losses', 'surplus', 'deficit'],
  business: ['business', 'businesses', 'company', 'companies', 'firm', 'organisation', 'organization', 'entity', 'enterprise'],
  start: ['start', 'started', 'starting', 'established', 'establishment', 'founded', 'founding', 'incorporated', 'incorporation', 'formed', 'formation', 'began', 'begun', 'opened', 'commenced', 'inception', 'since'],
  phone: ['phone', 'phones', 'telephone', 'tel', 'mobile', 'cell', 'landline'],
  email: ['email', 'emails', 'mail'],
  website: ['website', 'websites', 'web', 'url', 'site', 'www', 'online'],
  address: ['address', 'addresses', 'located', 'location', 'premises', 'office', 'headquarters', 'hq'],
  postcode: ['postcode', 'postcodes', 'zip', 'postal'],
  city: ['city', 'town'],
  region: ['region', 'county', 'state', 'province'],
  country: ['country', 'nation'],
  name: ['name', 'names', 'named', 'called'],
  legal: ['legal', 'registered', 'official'],
  registration: ['registration', 'reg', 'registry'],
  trading: ['trading', 'trade', 'trades', 'traded', 'brand', 'dba'],
  amount: ['amount', 'sum', 'total', 'value', 'figure'],
  funding: ['funding', 'funds', 'fund', 'finance', 'financing', 'loan', 'loans', 'borrowing', 'borrow', 'facility', 'lending', 'investment'],
  debt: ['debt', 'debts', 'owed', 'outstanding', 'overdraft', 'overdrafts', 'liabilities', 'liability', 'arrears'],
  need: ['need', 'needs', 'needed', 'require', 'requires', 'required', 'requirement', 'request', 'requested', 'requesting', 'seek', 'seeking', 'sought', 'looking', 'want', 'wanted', 'asking'],
  purpose: ['purpose', 'purposes', 'use', 'uses', 'reason', 'reasons'],
  timeline: ['timeline', 'timescale', 'timeframe', 'timing', 'deadline', 'when', 'urgency'],
  term: ['term', 'terms', 'tenor', 'duration', 'repayment', 'repayments', 'repay'],
  month: ['month', 'months', 'monthly', 'mo'],
  year: ['year', 'years', 'yearly', 'annual', 'annually', 'fy'],
  security: ['security', 'collateral', 'secured', 'guarantee', 'guarantees', 'guarantor', 'pledge'],
  margin: ['margin', 'margins'],
  percent: ['percent', 'percentage', 'pct'],
  contact: ['contact', 'contacts', 'contacted', 'contacting', 'representative', 'applicant'],
  role: ['role', 'roles', 'position', 'title', 'job', 'designation', 'capacity'],
  accountant: ['accountant', 'accountants', 'accounting', 'accountancy', 'bookkeeper', 'auditor', 'auditors'],
  lender: ['lender', 'lenders', 'bank', 'banks', 'creditor', 'creditors', 'provider', 'providers'],
  description: ['description', 'describe', 'about', 'overview', 'summary', 'profile', 'activities', 'activity', 'nature'],
  industry: ['industry', 'industries', 'sector', 'sectors', 'market'],
  type: ['type', 'types', 'structure', 'kind', 'form'],
  owner: ['owner', 'owners', 'ownership', 'shareholder', 'shareholders', 'shareholding', 'director', 'directors', 'partner', 'partners', 'proprietor', 'founder', 'founders'],
  birth: ['birth', 'born'],
  sign: ['sign', 'signed', 'signing', 'signature', 'signatory'],
  preferred: ['preferred', 'prefer', 'preference', 'preferences'],
  existing: ['existing', 'current', 'currently'],
  end: ['end', 'ended', 'ending'],
  date: ['date', 'dated', 'day'],
};

const CANON = new Map<string, string>();
for (const [canon, words] of Object.entries(CANON_GROUPS)) for (const w of words) CANON.set(w, canon);

export const canonical = (word: string) => CANON.get(word) ?? word;

/** Folded words with phrases joined, before stop words and synonyms are applied (keeps positions). */
export function rawWords(text: string): string[] {
  let folded = fold(text);
  for (const [re, to] of PHRASES) folded = folded.replace(re, to);
  return folded.split(' ').filter(Boolean);
}

/** Canonical content words of a text, in order (repeats kept). */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const w of rawWords(text)) {
    if (STOP_WORDS.has(w)) continue;
    // Bare numbers say nothing about which question a line answers.
    if (/^\d+$/.test(w)) continue;
    out.push(canonical(w));
  }
  return out;
}

/** "business_address" → "business address". */
export const humanizeKey = (key: string) => key.replace(/[_\-.]+/g, ' ').trim();

/** Cuts a line to at most `max` characters for an excerpt, on a word boundary where it can. */
export function clip(text: string, max = 300): string {
  const t = text.replace(/\s+/g, ' ').trim();
  if (t.length <= max) return t;
  const cut = t.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > max * 0.6 ? cut.slice(0, space) : cut}…`;
}
