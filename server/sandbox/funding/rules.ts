import type { AnswerValue, CriterionStatus, Fit, MatchCriterion, ProductKind } from '@/lib/portal';
import { FITS } from '@/lib/portal';
import { CREDIT_BANDS, FUNDER_DOCUMENTS, type CollateralKind, type CreditBand, type CriteriaSnapshot, type FunderProduct, type FunderProfile, type ScreenedProduct } from './types';

/*
 * The sandbox's matching rules (DESIGN.md §6). Deterministic: the same criteria, intake files, day and funders
 * always give the same matches, scores, fits, order and reasons, so tests can rely on every one of them.
 *
 * Screening. Every funder is screened; each of its products whose kind is among the criteria's `product_kinds`
 * becomes a match (other products are not matched at all). A match lists twelve criteria, in this order, each
 * met, not_met or unknown (unknown: the criteria leave the answer out), with the funder's expectation and the
 * criteria's value as text:
 *
 *   key              weight  knockout  met when
 *   amount             12      yes     product amount.min <= funding_amount <= amount.max
 *   currency            4      yes     the product lends in funding_currency
 *   purpose            12      yes     the product funds at least one of funding_purpose (or any purpose)
 *   time_trading        8      yes     whole months from date_established to the run's day >= min_months_trading
 *   annual_revenue      8      yes     annual_revenue >= min_annual_revenue
 *   profitability      12              the funder does not require a profit, or net_profit >= 0
 *   credit_band         8      yes     credit_band is one of the funder's credit_bands
 *   industry            4      yes     industry is not excluded, and is served (industries null: all are)
 *   region              4      yes     the country is served and (country, region) is not excluded
 *   collateral         14              the product needs no security, or some is offered and (when the product
 *                                      names what it accepts) one offered kind is accepted
 *   timeline            7              days_to_fund fits funding_timeline (14, 31, 92 days; flexible: any)
 *   term                7              preferred_term_months is within the product's term_months
 *
 * Score: the weights of the met criteria plus half the weights of the unknown ones (out of 100), rounded
 * half up. When a knockout criterion is not met the score is multiplied by 0.4 and rounded down (so it is
 * below 40). Fit: unlikely when a knockout is not met or the score is below 50; strong at 85 or more with no
 * criterion not met; good at 75 or more; possible otherwise.
 *
 * Documents: each document the funder requires is provided when the business's intake application has at
 * least one file in the file question it maps to (FUNDER_DOCUMENTS), else missing. Documents do not score.
 *
 * Order: score descending, then fit (strong first), then recipient name, product name, recipient id and
 * product key ascending (a stable tie-break).
 */

const WEIGHTS = {
  amount: 12,
  currency: 4,
  purpose: 12,
  time_trading: 8,
  annual_revenue: 8,
  profitability: 12,
  credit_band: 8,
  industry: 4,
  region: 4,
  collateral: 14,
  timeline: 7,
  term: 7,
} as const;
type CriterionKey = keyof typeof WEIGHTS;
const KNOCKOUTS: ReadonlySet<CriterionKey> = new Set(['amount', 'currency', 'purpose', 'time_trading', 'annual_revenue', 'credit_band', 'industry', 'region']);

const LABELS: Record<CriterionKey, string> = {
  amount: 'Amount',
  currency: 'Currency',
  purpose: 'Purpose',
  time_trading: 'Time trading',
  annual_revenue: 'Annual revenue',
  profitability: 'Profitability',
  credit_band: 'Credit rating',
  industry: 'Industry',
  region: 'Region',
  collateral: 'Security',
  timeline: 'Time to funds',
  term: 'Term',
};

/** Days each funding_timeline allows (flexible: any). */
const TIMELINE_DAYS: Record<string, number> = { within_two_weeks: 14, within_one_month: 31, within_three_months: 92 };

/** What the rules read from the criteria. */
export interface CriteriaFacts {
  amount: number | null;
  /** ISO 4217 (upper case). */
  currency: string | null;
  purposes: string[];
  productKinds: ProductKind[];
  timeline: string | null;
  term: number | null;
  established: string | null;
  monthsTrading: number | null;
  industry: string | null;
  country: string | null;
  region: string | null;
  revenue: number | null;
  netProfit: number | null;
  creditBand: CreditBand | null;
  canOfferCollateral: boolean | null;
  collateral: CollateralKind[];
  intakeFiles: ReadonlySet<string>;
}

const num = (v: AnswerValue | undefined) => (typeof v === 'number' ? v : null);
const str = (v: AnswerValue | undefined) => (typeof v === 'string' && v !== '' ? v : null);
const strs = (v: AnswerValue | undefined) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** Whole months from `from` to `to` (YYYY-MM-DD), never below 0. */
export function monthsBetween(from: string, to: string): number {
  const [fy, fm, fd] = from.split('-').map(Number) as [number, number, number];
  const [ty, tm, td] = to.split('-').map(Number) as [number, number, number];
  const months = (ty - fy) * 12 + (tm - fm) - (td < fd ? 1 : 0);
  return Math.max(0, months);
}

/** Reads the criteria snapshot (visible answers by `schema_key|field_key`). */
export function factsOf(snapshot: CriteriaSnapshot): CriteriaFacts {
  const a = (schema: string, field = 'value') => snapshot.answers[`${schema}|${field}`];
  const established = str(a('date_established'));
  const band = str(a('credit_band'));
  const offer = a('can_offer_collateral');
  return {
    amount: num(a('funding_amount')),
    currency: str(a('funding_currency'))?.toUpperCase() ?? null,
    purposes: strs(a('funding_purpose')),
    productKinds: strs(a('product_kinds')) as ProductKind[],
    timeline: str(a('funding_timeline')),
    term: num(a('preferred_term_months')),
    established,
    monthsTrading: established ? monthsBetween(established, snapshot.as_of) : null,
    industry: str(a('industry')),
    country: str(a('business_address', 'country'))?.toUpperCase() ?? null,
    region: str(a('business_address', 'region')),
    revenue: num(a('annual_revenue')),
    netProfit: num(a('net_profit')),
    creditBand: band && (CREDIT_BANDS as readonly string[]).includes(band) ? (band as CreditBand) : null,
    canOfferCollateral: typeof offer === 'boolean' ? offer : null,
    collateral: strs(a('collateral_types')) as CollateralKind[],
    intakeFiles: new Set(snapshot.intake_files),
  };
}

/* Text of the reasons. */

/** 1234567.5 → "1,234,567.5" (deterministic, no locale). */
export function grouped(n: number): string {
  const fixed = Math.abs(n).toFixed(2);
  const int = fixed.slice(0, -3);
  let out = n < 0 ? '-' : '';
  for (let i = 0; i < int.length; i++) {
    if (i > 0 && (int.length - i) % 3 === 0) out += ',';
    out += int[i];
  }
  const frac = fixed.slice(-2);
  return frac === '00' ? out : `${out}.${frac.endsWith('0') ? frac[0] : frac}`;
}

/** "working_capital" → "Working capital" (or "working capital" inside a sentence). */
const human = (key: string, capital = true) => {
  const s = key.replace(/_/g, ' ');
  return capital ? s.charAt(0).toUpperCase() + s.slice(1) : s;
};
/** ["a_b", "c", "d"] → "A b, c or d" (capitalised first word unless `capital` is false). */
const either = (keys: readonly string[], capital = true, word = 'or') => {
  const parts = keys.map((k, i) => human(k, capital && i === 0));
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} ${word} ${parts.at(-1)}`;
};
const money = (n: number, currency: string | null) => (currency ? `${currency} ${grouped(n)}` : grouped(n));

interface Verdict {
  status: CriterionStatus;
  expected: string;
  actual: string | null;
  message: string;
}

const met = (expected: string, actual: string | null, message: string): Verdict => ({ status: 'met', expected, actual, message });
const notMet = (expected: string, actual: string | null, message: string): Verdict => ({ status: 'not_met', expected, actual, message });
const unknown = (expected: string, message: string): Verdict => ({ status: 'unknown', expected, actual: null, message });

type Rule = (f: CriteriaFacts, funder: FunderProfile, p: FunderProduct) => Verdict;

const RULES: Record<CriterionKey, Rule> = {
  amount: (f, _funder, p) => {
    const expected = `${p.currency} ${grouped(p.amount.min)} – ${grouped(p.amount.max)}`;
    if (f.amount === null) return unknown(expected, 'The amount needed is not given.');
    const actual = money(f.amount, f.currency);
    if (f.amount < p.amount.min) return notMet(expected, actual, `Below this product's minimum of ${p.currency} ${grouped(p.amount.min)}.`);
    if (f.amount > p.amount.max) return notMet(expected, actual, `Above this product's maximum of ${p.currency} ${grouped(p.amount.max)}.`);
    return met(expected, actual, 'The amount is within what this product lends.');
  },
  currency: (f, _funder, p) => {
    if (f.currency === null) return unknown(p.currency, 'The currency is not given.');
    if (f.currency !== p.currency) return notMet(p.currency, f.currency, `Lends in ${p.currency} only, not ${f.currency}.`);
    return met(p.currency, f.currency, `Lends in ${p.currency}.`);
  },
  purpose: (f, _funder, p) => {
    const expected = p.purposes === null ? 'Any purpose' : either(p.purposes);
    if (f.purposes.length === 0) return unknown(expected, 'The purpose is not given.');
    const actual = either(f.purposes, true, 'and');
    if (p.purposes === null) return met(expected, actual, 'Funds any purpose.');
    const funded = f.purposes.filter((x) => p.purposes!.includes(x));
    const not = f.purposes.filter((x) => !p.purposes!.includes(x));
    if (funded.length === 0) return notMet(expected, actual, `Does not fund ${either(not, false)}.`);
    if (not.length === 0) return met(expected, actual, 'Funds every purpose asked for.');
    return met(expected, actual, `Funds ${either(funded, false, 'and')}; not ${either(not, false)}.`);
  },
  time_trading: (f, funder) => {
    const min = funder.lending.min_months_trading;
    const expected = min === 0 ? 'No minimum' : `At least ${min} months`;
    if (f.monthsTrading === null) return unknown(expected, 'The date the business started trading is not given.');
    const actual = `${f.monthsTrading} months`;
    if (f.monthsTrading < min) return notMet(expected, actual, `Needs ${min} months of trading; the business has ${f.monthsTrading}.`);
    return met(expected, actual, min === 0 ? 'No minimum time trading.' : 'Trading for long enough.');
  },
  annual_revenue: (f, funder) => {
    const min = funder.lending.min_annual_revenue;
    const expected = min === 0 ? 'No minimum' : `At least ${grouped(min)}`;
    if (f.revenue === null) return unknown(expected, 'Annual revenue is not given.');
    const actual = grouped(f.revenue);
    if (f.revenue < min) return notMet(expected, actual, `Below the minimum annual revenue of ${grouped(min)}.`);
    return met(expected, actual, min === 0 ? 'No minimum revenue.' : 'Revenue meets the minimum.');
  },
  profitability: (f, funder) => {
    const actual = f.netProfit === null ? null : f.netProfit >= 0 ? `Profit of ${grouped(f.netProfit)}` : `Loss of ${grouped(-f.netProfit)}`;
    if (!funder.lending.requires_profit) return met('Not required', actual, 'Lends to loss-making businesses too.');
    const expected = 'A profit in the last financial year';
    if (f.netProfit === null) return unknown(expected, 'Net profit is not given.');
    if (f.netProfit < 0) return notMet(expected, actual, 'Lends only to profitable businesses.');
    return met(expected, actual, 'Profitable.');
  },
  credit_band: (f, funder) => {
    const expected = either(funder.lending.credit_bands);
    if (f.creditBand === null) return unknown(expected, 'The credit rating is not given.');
    const actual = human(f.creditBand);
    if (!funder.lending.credit_bands.includes(f.creditBand)) return notMet(expected, actual, `Does not accept a ${human(f.creditBand, false)} credit rating.`);
    return met(expected, actual, 'The credit rating is accepted.');
  },
  industry: (f, funder) => {
    const { industries, excluded_industries: excluded } = funder.lending;
    const expected =
      industries !== null ? either(industries) : excluded.length > 0 ? `Any industry except ${either(excluded, false, 'and')}` : 'Any industry';
    if (f.industry === null) return unknown(expected, 'The industry is not given.');
    const actual = human(f.industry);
    if (excluded.includes(f.industry) || (industries !== null && !industries.includes(f.industry))) {
      return notMet(expected, actual, `Does not lend to ${human(f.industry, false)}.`);
    }
    return met(expected, actual, `Lends to ${human(f.industry, false)}.`);
  },
  region: (f, funder) => {
    const { countries, excluded_regions: excluded } = funder.lending;
    const expected = countries
      .map((c) => {
        const out = excluded.filter((r) => r.country === c).map((r) => r.region);
        return out.length > 0 ? `${c} except ${out.join(', ')}` : c;
      })
      .join('; ');
    if (f.country === null) return unknown(expected, 'The country is not given.');
    const actual = f.region ? `${f.country}, ${f.region}` : f.country;
    if (!countries.includes(f.country)) return notMet(expected, actual, `Does not lend in ${f.country}.`);
    const region = f.region?.trim().toLowerCase();
    const out = excluded.find((r) => r.country === f.country && r.region.toLowerCase() === region);
    if (out) return notMet(expected, actual, `Does not lend in ${out.region} (${out.country}).`);
    return met(expected, actual, `Lends in ${f.country}.`);
  },
  collateral: (f, _funder, p) => {
    const offered = f.canOfferCollateral === null ? null : f.canOfferCollateral ? (f.collateral.length > 0 ? `Offered: ${either(f.collateral, false, 'and')}` : 'Offered') : 'None offered';
    if (!p.requires_collateral) return met('Not required', offered, 'No security required.');
    const expected = p.collateral_accepted.length === 0 ? 'Required (any kind)' : `Required: ${either(p.collateral_accepted, false)}`;
    if (f.canOfferCollateral === null) return unknown(expected, 'Whether security can be offered is not given.');
    if (!f.canOfferCollateral) return notMet(expected, offered, 'Requires security.');
    if (p.collateral_accepted.length === 0 || f.collateral.length === 0) return met(expected, offered, 'Security is offered.');
    const taken = f.collateral.filter((c) => p.collateral_accepted.includes(c));
    if (taken.length === 0) {
      return notMet(expected, offered, `Accepts ${either(p.collateral_accepted, false)}, not ${either(f.collateral, false)}.`);
    }
    return met(expected, offered, `${either(taken, true, 'and')} ${taken.length === 1 ? 'is' : 'are'} accepted.`);
  },
  timeline: (f, funder) => {
    const days = funder.lending.days_to_fund;
    const expected = `About ${days} days`;
    if (f.timeline === null) return unknown(expected, 'When the funds are needed is not given.');
    const actual = human(f.timeline);
    const allowed = TIMELINE_DAYS[f.timeline];
    if (allowed !== undefined && days > allowed) {
      return notMet(expected, actual, `Usually takes ${days} days; the funds are needed ${human(f.timeline, false)}.`);
    }
    return met(expected, actual, 'Can pay out in time.');
  },
  term: (f, _funder, p) => {
    const expected = p.term_months ? `${p.term_months.min} – ${p.term_months.max} months` : 'No fixed term';
    if (f.term === null) return unknown(expected, 'No preferred term is given.');
    const actual = `${f.term} months`;
    if (!p.term_months) return { status: 'unknown', expected, actual, message: 'This product has no fixed term.' };
    if (f.term < p.term_months.min || f.term > p.term_months.max) {
      return notMet(expected, actual, `Terms run ${p.term_months.min} – ${p.term_months.max} months.`);
    }
    return met(expected, actual, 'The preferred term is available.');
  },
};

const ORDER = Object.keys(WEIGHTS) as CriterionKey[];

/** Score and fit of a match from its criteria (see the rules above). */
export function scoreOf(criteria: ReadonlyArray<{ key: string; status: CriterionStatus }>): { score: number; fit: Fit } {
  let points = 0;
  let knockedOut = false;
  let anyNotMet = false;
  for (const c of criteria) {
    const w = WEIGHTS[c.key as CriterionKey];
    if (c.status === 'met') points += w;
    else if (c.status === 'unknown') points += w / 2;
    else {
      anyNotMet = true;
      if (KNOCKOUTS.has(c.key as CriterionKey)) knockedOut = true;
    }
  }
  if (knockedOut) return { score: Math.floor(points * 0.4), fit: 'unlikely' };
  const score = Math.round(points);
  const fit: Fit = score < 50 ? 'unlikely' : score >= 85 && !anyNotMet ? 'strong' : score >= 75 ? 'good' : 'possible';
  return { score, fit };
}

/** The matches one funder gives: one per product of a kind the criteria want. */
export function screenFunder(funder: FunderProfile, f: CriteriaFacts): ScreenedProduct[] {
  const wanted = f.productKinds.length === 0 ? null : new Set(f.productKinds);
  const documents = funder.lending.documents.map((key) => {
    const d = FUNDER_DOCUMENTS[key];
    return { key, label: d.label, status: f.intakeFiles.has(d.schema_key) ? ('provided' as const) : ('missing' as const) };
  });
  return funder.products
    .filter((p) => wanted === null || wanted.has(p.kind))
    .map((p) => {
      const criteria: MatchCriterion[] = ORDER.map((key) => ({ key, label: LABELS[key], ...RULES[key](f, funder, p) }));
      return {
        recipient_id: funder.recipient_id,
        recipient_name: funder.name,
        product_key: p.key,
        product: { name: p.name, kind: p.kind },
        ...scoreOf(criteria),
        amount_range: { min: p.amount.min, max: p.amount.max, currency: p.currency },
        rate_range: p.rate ? { ...p.rate } : null,
        term_months: p.term_months ? { ...p.term_months } : null,
        criteria,
        documents: documents.map((d) => ({ ...d })),
      };
    });
}

const FIT_ORDER = new Map(FITS.map((f, i) => [f, i]));
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Rank order: score descending, fit, then recipient name, product name, recipient id, product key. */
export function compareScreened(a: ScreenedProduct, b: ScreenedProduct): number {
  return (
    b.score - a.score ||
    FIT_ORDER.get(a.fit)! - FIT_ORDER.get(b.fit)! ||
    cmp(a.recipient_name, b.recipient_name) ||
    cmp(a.product.name, b.product.name) ||
    cmp(a.recipient_id, b.recipient_id) ||
    cmp(a.product_key, b.product_key)
  );
}
