import { describe, expect, it } from 'vitest';
import { ID_PATTERNS, PRODUCT_KINDS, type AnswerValue, type MatchCriterion } from '@/lib/portal';
import { generateFunders } from '@/server/sandbox/funding/generate';
import { compareScreened, factsOf, grouped, monthsBetween, scoreOf, screenFunder } from '@/server/sandbox/funding/rules';
import type { FunderProduct, FunderProfile, LendingBox, ScreenedProduct } from '@/server/sandbox/funding/types';
import { buildFunders } from '@/server/sandbox/seed/funders';

/* The matching rules of server/sandbox/funding/rules.ts, one rule at a time. */

const AS_OF = '2026-06-15';

/** Criteria answers by `schema|field`, as a run's snapshot holds them. */
function facts(overrides: Record<string, AnswerValue> = {}, intakeFiles: string[] = []) {
  const answers: Record<string, AnswerValue> = {
    'funding_amount|value': 100_000,
    'funding_currency|value': 'gbp',
    'funding_purpose|value': ['equipment'],
    'product_kinds|value': ['term_loan'],
    'funding_timeline|value': 'within_one_month',
    'preferred_term_months|value': 36,
    'date_established|value': '2020-06-15',
    'industry|value': 'manufacturing',
    'business_address|country': 'GB',
    'business_address|region': 'West Yorkshire',
    'annual_revenue|value': 500_000,
    'net_profit|value': 20_000,
    'credit_band|value': 'good',
    'can_offer_collateral|value': true,
    'collateral_types|value': ['equipment'],
  };
  for (const [k, v] of Object.entries(overrides)) {
    if (v === null) delete answers[k];
    else answers[k] = v;
  }
  return factsOf({ answers, intake_files: intakeFiles, as_of: AS_OF });
}

const LENDING: LendingBox = {
  min_months_trading: 24,
  min_annual_revenue: 250_000,
  requires_profit: false,
  credit_bands: ['excellent', 'good'],
  industries: null,
  excluded_industries: [],
  countries: ['GB'],
  excluded_regions: [],
  days_to_fund: 14,
  documents: ['bank_statements', 'owner_id'],
};
const PRODUCT: FunderProduct = {
  key: 'term',
  name: 'Term loan',
  kind: 'term_loan',
  currency: 'GBP',
  amount: { min: 50_000, max: 500_000 },
  rate: { min: 6, max: 9 },
  term_months: { min: 12, max: 60 },
  purposes: null,
  requires_collateral: false,
  collateral_accepted: [],
};

function funderWith(lending: Partial<LendingBox> = {}, product: Partial<FunderProduct> = {}, more: FunderProduct[] = []): FunderProfile {
  return { recipient_id: 'rcpt_test', name: 'Test Funder', lending: { ...LENDING, ...lending }, products: [{ ...PRODUCT, ...product }, ...more] };
}

/** The one criterion of the only match. */
function criterion(key: string, funder: FunderProfile, f = facts()): MatchCriterion {
  const [match] = screenFunder(funder, f);
  const c = match?.criteria.find((x) => x.key === key);
  if (!c) throw new Error(`no criterion ${key}`);
  return c;
}
const verdict = (c: MatchCriterion) => [c.status, c.expected, c.actual, c.message];

describe('text helpers', () => {
  it('counts whole months of trading, never below zero', () => {
    expect(monthsBetween('2020-01-15', '2020-03-14')).toBe(1);
    expect(monthsBetween('2020-01-15', '2020-03-15')).toBe(2);
    expect(monthsBetween('2015-03-01', '2026-06-15')).toBe(135);
    expect(monthsBetween('2027-01-01', '2026-06-15')).toBe(0);
  });

  it('groups thousands without a locale and keeps only the decimals there are', () => {
    expect(grouped(250_000)).toBe('250,000');
    expect(grouped(1_234_567.5)).toBe('1,234,567.5');
    expect(grouped(0.05)).toBe('0.05');
    expect(grouped(-8_250)).toBe('-8,250');
    expect(grouped(999)).toBe('999');
  });
});

describe('score and fit', () => {
  const all = (status: MatchCriterion['status']) =>
    ['amount', 'currency', 'purpose', 'time_trading', 'annual_revenue', 'profitability', 'credit_band', 'industry', 'region', 'collateral', 'timeline', 'term'].map((key) => ({ key, status }));
  const set = (changes: Record<string, MatchCriterion['status']>) => all('met').map((c) => ({ ...c, status: changes[c.key] ?? c.status }));

  it('gives 100 and strong when every criterion is met', () => {
    expect(scoreOf(all('met'))).toEqual({ score: 100, fit: 'strong' });
  });

  it('counts half the weight of an unknown criterion, rounding half up', () => {
    // profitability (12) and term (7) unknown: 100 - 6 - 3.5 = 90.5
    expect(scoreOf(set({ profitability: 'unknown', term: 'unknown' }))).toEqual({ score: 91, fit: 'strong' });
  });

  it('is never strong with a criterion not met, good at 75 or more, possible below', () => {
    expect(scoreOf(set({ timeline: 'not_met' }))).toEqual({ score: 93, fit: 'good' });
    expect(scoreOf(set({ collateral: 'not_met', profitability: 'not_met' }))).toEqual({ score: 74, fit: 'possible' });
    expect(scoreOf(set({ collateral: 'not_met', timeline: 'not_met', term: 'not_met' }))).toEqual({ score: 72, fit: 'possible' });
  });

  it('multiplies by 0.4 (rounded down) and says unlikely when a knockout criterion is not met', () => {
    // amount (12) not met: 88 * 0.4 = 35.2
    expect(scoreOf(set({ amount: 'not_met' }))).toEqual({ score: 35, fit: 'unlikely' });
    // purpose (12) and annual_revenue (8) not met, timeline (7) too: 73 * 0.4 = 29.2
    expect(scoreOf(set({ purpose: 'not_met', annual_revenue: 'not_met', timeline: 'not_met' }))).toEqual({ score: 29, fit: 'unlikely' });
  });

  it('says unlikely below 50 even without a knockout', () => {
    // every soft criterion not met (40) and amount, currency, purpose unknown (14): 46
    const criteria = set({ profitability: 'not_met', collateral: 'not_met', timeline: 'not_met', term: 'not_met', amount: 'unknown', currency: 'unknown', purpose: 'unknown' });
    expect(scoreOf(criteria)).toEqual({ score: 46, fit: 'unlikely' });
  });
});

describe('criteria of a match', () => {
  it('lists the twelve criteria in order, with the product’s ranges', () => {
    const [match] = screenFunder(funderWith(), facts());
    expect(match?.criteria.map((c) => c.key)).toEqual([
      'amount',
      'currency',
      'purpose',
      'time_trading',
      'annual_revenue',
      'profitability',
      'credit_band',
      'industry',
      'region',
      'collateral',
      'timeline',
      'term',
    ]);
    expect(match).toMatchObject({ amount_range: { min: 50_000, max: 500_000, currency: 'GBP' }, rate_range: { min: 6, max: 9 }, term_months: { min: 12, max: 60 } });
  });

  it('matches only products of the kinds asked for', () => {
    const lease: FunderProduct = { ...PRODUCT, key: 'lease', name: 'Lease', kind: 'equipment_finance' };
    expect(screenFunder(funderWith({}, {}, [lease]), facts()).map((m) => m.product_key)).toEqual(['term']);
    expect(screenFunder(funderWith({}, {}, [lease]), facts({ 'product_kinds|value': ['term_loan', 'equipment_finance'] })).map((m) => m.product_key)).toEqual(['term', 'lease']);
  });

  it('amount: within the product’s range, with the reason when below or above', () => {
    expect(verdict(criterion('amount', funderWith()))).toEqual(['met', 'GBP 50,000 – 500,000', 'GBP 100,000', 'The amount is within what this product lends.']);
    expect(verdict(criterion('amount', funderWith({}, { amount: { min: 150_000, max: 500_000 } })))).toEqual([
      'not_met',
      'GBP 150,000 – 500,000',
      'GBP 100,000',
      "Below this product's minimum of GBP 150,000.",
    ]);
    expect(criterion('amount', funderWith({}, { amount: { min: 5_000, max: 75_000 } })).message).toBe("Above this product's maximum of GBP 75,000.");
  });

  it('currency: the product’s own', () => {
    expect(verdict(criterion('currency', funderWith({}, { currency: 'EUR' })))).toEqual(['not_met', 'EUR', 'GBP', 'Lends in EUR only, not GBP.']);
    expect(verdict(criterion('currency', funderWith(), facts({ 'funding_currency|value': null })))).toEqual(['unknown', 'GBP', null, 'The currency is not given.']);
  });

  it('purpose: any purpose, some of them, or none', () => {
    const two = facts({ 'funding_purpose|value': ['equipment', 'working_capital'] });
    expect(verdict(criterion('purpose', funderWith(), two))).toEqual(['met', 'Any purpose', 'Equipment and working capital', 'Funds any purpose.']);
    expect(verdict(criterion('purpose', funderWith({}, { purposes: ['equipment', 'property'] }), two))).toEqual([
      'met',
      'Equipment or property',
      'Equipment and working capital',
      'Funds equipment; not working capital.',
    ]);
    expect(verdict(criterion('purpose', funderWith({}, { purposes: ['property'] }), two))).toEqual([
      'not_met',
      'Property',
      'Equipment and working capital',
      'Does not fund equipment or working capital.',
    ]);
  });

  it('time trading: whole months to the run’s day', () => {
    expect(verdict(criterion('time_trading', funderWith()))).toEqual(['met', 'At least 24 months', '72 months', 'Trading for long enough.']);
    const young = facts({ 'date_established|value': '2025-09-20' });
    expect(verdict(criterion('time_trading', funderWith(), young))).toEqual(['not_met', 'At least 24 months', '8 months', 'Needs 24 months of trading; the business has 8.']);
    expect(verdict(criterion('time_trading', funderWith({ min_months_trading: 0 }), young))).toEqual(['met', 'No minimum', '8 months', 'No minimum time trading.']);
  });

  it('annual revenue and profitability', () => {
    expect(verdict(criterion('annual_revenue', funderWith({ min_annual_revenue: 750_000 })))).toEqual([
      'not_met',
      'At least 750,000',
      '500,000',
      'Below the minimum annual revenue of 750,000.',
    ]);
    expect(verdict(criterion('profitability', funderWith(), facts({ 'net_profit|value': -8_250 })))).toEqual([
      'met',
      'Not required',
      'Loss of 8,250',
      'Lends to loss-making businesses too.',
    ]);
    const strict = funderWith({ requires_profit: true });
    expect(verdict(criterion('profitability', strict, facts({ 'net_profit|value': -8_250 })))).toEqual([
      'not_met',
      'A profit in the last financial year',
      'Loss of 8,250',
      'Lends only to profitable businesses.',
    ]);
    expect(verdict(criterion('profitability', strict, facts({ 'net_profit|value': null })))).toEqual(['unknown', 'A profit in the last financial year', null, 'Net profit is not given.']);
  });

  it('credit rating and industry', () => {
    expect(verdict(criterion('credit_band', funderWith(), facts({ 'credit_band|value': 'fair' })))).toEqual([
      'not_met',
      'Excellent or good',
      'Fair',
      'Does not accept a fair credit rating.',
    ]);
    expect(verdict(criterion('industry', funderWith({ excluded_industries: ['manufacturing', 'retail'] })))).toEqual([
      'not_met',
      'Any industry except manufacturing and retail',
      'Manufacturing',
      'Does not lend to manufacturing.',
    ]);
    expect(verdict(criterion('industry', funderWith({ industries: ['healthcare', 'professional_services'] })))).toEqual([
      'not_met',
      'Healthcare or professional services',
      'Manufacturing',
      'Does not lend to manufacturing.',
    ]);
  });

  it('region: countries served and regions excluded (case-insensitive)', () => {
    expect(verdict(criterion('region', funderWith({ countries: ['US'] })))).toEqual(['not_met', 'US', 'GB, West Yorkshire', 'Does not lend in GB.']);
    const box = { countries: ['GB', 'IE'], excluded_regions: [{ country: 'GB', region: 'West Yorkshire' }] };
    expect(verdict(criterion('region', funderWith(box), facts({ 'business_address|region': 'west yorkshire' })))).toEqual([
      'not_met',
      'GB except West Yorkshire; IE',
      'GB, west yorkshire',
      'Does not lend in West Yorkshire (GB).',
    ]);
    expect(verdict(criterion('region', funderWith(box), facts({ 'business_address|region': null })))).toEqual(['met', 'GB except West Yorkshire; IE', 'GB', 'Lends in GB.']);
  });

  it('security: not required, none offered, or not a kind the product takes', () => {
    expect(verdict(criterion('collateral', funderWith()))).toEqual(['met', 'Not required', 'Offered: equipment', 'No security required.']);
    const secured = funderWith({}, { requires_collateral: true, collateral_accepted: ['property', 'receivables'] });
    expect(verdict(criterion('collateral', secured))).toEqual([
      'not_met',
      'Required: property or receivables',
      'Offered: equipment',
      'Accepts property or receivables, not equipment.',
    ]);
    expect(verdict(criterion('collateral', secured, facts({ 'can_offer_collateral|value': false, 'collateral_types|value': null })))).toEqual([
      'not_met',
      'Required: property or receivables',
      'None offered',
      'Requires security.',
    ]);
    const anyKind = funderWith({}, { requires_collateral: true });
    expect(verdict(criterion('collateral', anyKind))).toEqual(['met', 'Required (any kind)', 'Offered: equipment', 'Security is offered.']);
    expect(criterion('collateral', secured, facts({ 'collateral_types|value': ['property', 'equipment', 'receivables'] })).message).toBe('Property and receivables are accepted.');
  });

  it('time to funds and term', () => {
    expect(verdict(criterion('timeline', funderWith({ days_to_fund: 45 })))).toEqual([
      'not_met',
      'About 45 days',
      'Within one month',
      'Usually takes 45 days; the funds are needed within one month.',
    ]);
    expect(criterion('timeline', funderWith({ days_to_fund: 120 }), facts({ 'funding_timeline|value': 'flexible' })).status).toBe('met');
    expect(verdict(criterion('term', funderWith({}, { term_months: { min: 12, max: 24 } })))).toEqual(['not_met', '12 – 24 months', '36 months', 'Terms run 12 – 24 months.']);
    expect(verdict(criterion('term', funderWith({}, { term_months: null })))).toEqual(['unknown', 'No fixed term', '36 months', 'This product has no fixed term.']);
    expect(verdict(criterion('term', funderWith(), facts({ 'preferred_term_months|value': null })))).toEqual(['unknown', '12 – 60 months', null, 'No preferred term is given.']);
  });

  it('lists the funder’s documents as provided when the intake application has a file in their question', () => {
    const [match] = screenFunder(funderWith(), facts({}, ['bank_statements', 'supporting_documents']));
    expect(match?.documents).toEqual([
      { key: 'bank_statements', label: 'Business bank statements', status: 'provided' },
      { key: 'owner_id', label: 'ID for each owner', status: 'missing' },
    ]);
  });
});

describe('rank order', () => {
  const s = (over: Partial<ScreenedProduct>): ScreenedProduct => ({
    recipient_id: 'rcpt_a',
    recipient_name: 'A',
    product_key: 'p',
    product: { name: 'P', kind: 'term_loan' },
    score: 50,
    fit: 'possible',
    amount_range: { min: 0, max: 1, currency: 'GBP' },
    rate_range: null,
    term_months: null,
    criteria: [],
    documents: [],
    ...over,
  });

  it('sorts by score, then fit, then recipient name, product name, recipient id and product key', () => {
    const items = [
      s({ recipient_id: 'rcpt_z', recipient_name: 'Zeta', score: 93, fit: 'good' }),
      s({ recipient_id: 'rcpt_b', recipient_name: 'Beta', score: 93, fit: 'strong' }),
      s({ recipient_id: 'rcpt_c', recipient_name: 'Alpha', score: 72, product: { name: 'Y', kind: 'term_loan' } }),
      s({ recipient_id: 'rcpt_c', recipient_name: 'Alpha', score: 72, product: { name: 'X', kind: 'term_loan' } }),
      s({ recipient_id: 'rcpt_a', recipient_name: 'Alpha', score: 72, product: { name: 'X', kind: 'term_loan' }, product_key: 'q' }),
      s({ recipient_id: 'rcpt_a', recipient_name: 'Alpha', score: 72, product: { name: 'X', kind: 'term_loan' }, product_key: 'p' }),
      s({ score: 100, fit: 'strong' }),
    ];
    const order = [...items].sort(compareScreened).map((x) => `${x.score}:${x.recipient_id}:${x.product.name}:${x.product_key}`);
    expect(order).toEqual(['100:rcpt_a:P:p', '93:rcpt_b:P:p', '93:rcpt_z:P:p', '72:rcpt_a:X:p', '72:rcpt_a:X:q', '72:rcpt_c:X:p', '72:rcpt_c:Y:p']);
  });
});

describe('funders', () => {
  it('seeds thirty funders with valid products and lending boxes', () => {
    const funders = buildFunders();
    expect(funders).toHaveLength(30);
    expect(new Set(funders.map((f) => f.recipient_id)).size).toBe(30);
    expect(new Set(funders.flatMap((f) => f.products.map((p) => p.kind)))).toEqual(new Set(PRODUCT_KINDS));
    for (const f of funders) {
      expect(f.recipient_id).toMatch(ID_PATTERNS.recipient);
      expect(f.products.length).toBeGreaterThan(0);
      for (const p of f.products) expect(p.amount.min).toBeLessThan(p.amount.max);
    }
  });

  it('generates the same funders from the same seed, and more keeps the first ones', () => {
    const ten = generateFunders(10, 7);
    expect(generateFunders(10, 7)).toEqual(ten);
    expect(generateFunders(25, 7).slice(0, 10)).toEqual(ten);
    expect(generateFunders(10, 8)).not.toEqual(ten);
    const many = generateFunders(1_000, 1);
    expect(new Set(many.map((f) => f.recipient_id)).size).toBe(1_000);
    expect(new Set(many.map((f) => f.name)).size).toBe(1_000);
    for (const f of many) {
      expect(f.recipient_id).toMatch(ID_PATTERNS.recipient);
      expect(f.products.length).toBeGreaterThanOrEqual(1);
      expect(f.products.length).toBeLessThanOrEqual(3);
      for (const p of f.products) {
        expect(p.amount.min).toBeLessThan(p.amount.max);
        expect(PRODUCT_KINDS).toContain(p.kind);
      }
    }
  });
});
