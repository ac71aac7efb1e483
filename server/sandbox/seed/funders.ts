import type { ProductKind } from '@/lib/portal';
import type { CollateralKind, FunderProduct, FunderProfile, LendingBox } from '../funding/types';
import { RECIPIENT } from './deals';

/*
 * The demo Portal's funders (DESIGN.md §6): thirty recipients with products and lending boxes, varied on
 * purpose so that each demo business meets some and misses others for different reasons. The first five are
 * the recipients deals were already made for (seed/deals.ts); the rest join the recipients list after them.
 */

const box = (b: Partial<LendingBox>): LendingBox => ({
  min_months_trading: 24,
  min_annual_revenue: 100_000,
  requires_profit: false,
  credit_bands: ['excellent', 'good', 'fair'],
  industries: null,
  excluded_industries: [],
  countries: ['GB'],
  excluded_regions: [],
  days_to_fund: 21,
  documents: ['bank_statements', 'annual_accounts'],
  ...b,
});

interface ProductOptions {
  rate?: [number, number] | null;
  term?: [number, number] | null;
  purposes?: string[] | null;
  collateral?: CollateralKind[] | 'any' | null;
}

/** A product; collateral null: none required, 'any': required of any kind, a list: required, one of those. */
function product(
  key: string,
  name: string,
  kind: ProductKind,
  currency: string,
  amount: [number, number],
  o: ProductOptions = {},
): FunderProduct {
  const range = (r: [number, number] | null | undefined) => (r ? { min: r[0], max: r[1] } : null);
  return {
    key,
    name,
    kind,
    currency,
    amount: { min: amount[0], max: amount[1] },
    rate: range(o.rate),
    term_months: range(o.term),
    purposes: o.purposes ?? null,
    requires_collateral: o.collateral !== undefined && o.collateral !== null,
    collateral_accepted: Array.isArray(o.collateral) ? o.collateral : [],
  };
}

const funder = (recipient_id: string, name: string, lending: LendingBox, products: FunderProduct[]): FunderProfile => ({
  recipient_id,
  name,
  products,
  lending,
});

const GENERAL = ['working_capital', 'equipment', 'property', 'refinancing', 'expansion', 'acquisition'];

/** Built fresh on every call: the store owns and may mutate what it is given. */
export function buildFunders(): FunderProfile[] {
  return [
    funder(
      RECIPIENT.harbour,
      'Harbour Bank Business Finance',
      box({ min_months_trading: 36, min_annual_revenue: 500_000, requires_profit: true, credit_bands: ['excellent', 'good'], days_to_fund: 40, documents: ['bank_statements', 'annual_accounts', 'owner_id'] }),
      [
        product('term', 'Business term loan', 'term_loan', 'GBP', [25_000, 2_000_000], { rate: [5.5, 9.5], term: [12, 120], purposes: GENERAL, collateral: 'any' }),
        product('revolving', 'Business revolving credit', 'line_of_credit', 'GBP', [10_000, 500_000], { rate: [7, 12], term: [12, 36], purposes: ['working_capital', 'inventory'] }),
      ],
    ),
    funder(
      RECIPIENT.summit,
      'Summit Credit Partners',
      box({ min_annual_revenue: 250_000, countries: ['GB', 'IE'], days_to_fund: 14 }),
      [product('growth', 'Growth loan', 'term_loan', 'GBP', [50_000, 1_500_000], { rate: [8, 14], term: [12, 72], collateral: ['property', 'equipment', 'personal_guarantee'] })],
    ),
    funder(
      RECIPIENT.ironbridge,
      'Ironbridge Asset Finance',
      box({ min_months_trading: 12, days_to_fund: 10, documents: ['bank_statements'] }),
      [
        product('hp', 'Equipment hire purchase', 'equipment_finance', 'GBP', [10_000, 750_000], { rate: [6.5, 11], term: [12, 84], purposes: ['equipment'], collateral: ['equipment', 'vehicle'] }),
        product('fleet', 'Vehicle and fleet finance', 'asset_finance', 'GBP', [10_000, 500_000], { rate: [7, 12], term: [12, 60], purposes: ['equipment', 'expansion'], collateral: ['vehicle', 'equipment'] }),
      ],
    ),
    funder(
      RECIPIENT.evergreen,
      'Evergreen Community Lending',
      box({ min_months_trading: 6, min_annual_revenue: 25_000, credit_bands: ['excellent', 'good', 'fair', 'poor'], documents: ['bank_statements', 'owner_id'] }),
      [product('community', 'Community business loan', 'term_loan', 'GBP', [5_000, 150_000], { rate: [9, 15], term: [6, 60], purposes: ['working_capital', 'equipment', 'expansion', 'refinancing'] })],
    ),
    funder(
      RECIPIENT.calder,
      'Calder Invoice Finance',
      box({ min_months_trading: 12, min_annual_revenue: 250_000, industries: ['manufacturing', 'professional_services', 'transport_logistics', 'construction', 'technology', 'agriculture'], days_to_fund: 7 }),
      [product('factoring', 'Invoice factoring', 'invoice_finance', 'GBP', [20_000, 2_000_000], { rate: [2, 4.5], purposes: ['working_capital'], collateral: ['receivables'] })],
    ),
    funder(
      'rcpt_northgate',
      'Northgate Business Bank',
      box({ min_months_trading: 60, min_annual_revenue: 1_000_000, requires_profit: true, credit_bands: ['excellent', 'good'], days_to_fund: 45, documents: ['bank_statements', 'annual_accounts', 'owner_id', 'supporting_documents'] }),
      [product('commercial', 'Commercial mortgage', 'term_loan', 'GBP', [100_000, 5_000_000], { rate: [5, 8], term: [24, 180], purposes: ['property', 'acquisition', 'expansion'], collateral: ['property'] })],
    ),
    funder(
      'rcpt_quayside',
      'Quayside Capital',
      box({ min_months_trading: 6, min_annual_revenue: 120_000, credit_bands: ['good', 'fair', 'poor'], industries: ['retail', 'hospitality', 'healthcare', 'other'], countries: ['GB', 'IE'], days_to_fund: 3, documents: ['bank_statements'] }),
      [product('advance', 'Revenue-based cash advance', 'merchant_cash_advance', 'GBP', [5_000, 300_000], { term: [3, 18], purposes: ['working_capital', 'inventory'] })],
    ),
    funder(
      'rcpt_pennine',
      'Pennine Growth Fund',
      box({
        min_months_trading: 36,
        min_annual_revenue: 2_000_000,
        requires_profit: true,
        credit_bands: ['excellent', 'good'],
        industries: ['manufacturing', 'technology', 'professional_services'],
        excluded_regions: [{ country: 'GB', region: 'Northern Ireland' }],
        days_to_fund: 60,
        documents: ['annual_accounts', 'owner_id', 'supporting_documents'],
      }),
      [product('expansion', 'Expansion loan', 'term_loan', 'GBP', [250_000, 3_000_000], { rate: [9, 13], term: [36, 84], purposes: ['expansion', 'acquisition'], collateral: ['personal_guarantee'] })],
    ),
    funder(
      'rcpt_thistle',
      'Thistle Enterprise Finance',
      box({ days_to_fund: 35 }),
      [product('enterprise', 'Enterprise loan', 'term_loan', 'GBP', [10_000, 400_000], { rate: [7, 12], term: [12, 48], collateral: ['property'] })],
    ),
    funder(
      'rcpt_beacon',
      'Beacon Line Credit',
      box({ min_months_trading: 12, min_annual_revenue: 75_000, credit_bands: ['good', 'fair'], days_to_fund: 5, documents: ['bank_statements'] }),
      [product('flex', 'Flexible credit line', 'line_of_credit', 'GBP', [5_000, 250_000], { rate: [10, 18], term: [12, 24], purposes: ['working_capital', 'inventory'] })],
    ),
    funder(
      'rcpt_meadowbank',
      'Meadowbank Agri Finance',
      box({ min_annual_revenue: 50_000, industries: ['agriculture'], countries: ['GB', 'IE'], days_to_fund: 30 }),
      [
        product('machinery', 'Farm machinery finance', 'equipment_finance', 'GBP', [10_000, 1_000_000], { rate: [5, 9], term: [12, 84], purposes: ['equipment'], collateral: ['equipment', 'vehicle'] }),
        product('land', 'Farm land and buildings loan', 'term_loan', 'GBP', [25_000, 2_000_000], { rate: [5, 8], term: [36, 240], purposes: ['property', 'expansion'], collateral: ['property'] }),
      ],
    ),
    funder(
      'rcpt_greenway',
      'Greenway Innovation Grants',
      box({ min_months_trading: 0, min_annual_revenue: 0, credit_bands: ['excellent', 'good', 'fair', 'poor'], industries: ['technology', 'manufacturing', 'agriculture'], days_to_fund: 90, documents: ['supporting_documents', 'annual_accounts'] }),
      [product('innovation', 'Innovation grant', 'grant', 'GBP', [5_000, 100_000], { purposes: ['equipment', 'expansion', 'other'] })],
    ),
    funder(
      'rcpt_forthright',
      'Forthright Invoice Partners',
      box({ min_annual_revenue: 1_000_000, excluded_industries: ['hospitality', 'retail'], days_to_fund: 14 }),
      [product('discounting', 'Confidential invoice discounting', 'invoice_finance', 'GBP', [50_000, 5_000_000], { rate: [1.5, 3.5], purposes: ['working_capital'], collateral: ['receivables'] })],
    ),
    funder(
      'rcpt_lantern',
      'Lantern Hospitality Finance',
      box({ min_months_trading: 12, min_annual_revenue: 150_000, credit_bands: ['good', 'fair'], industries: ['hospitality', 'retail'], days_to_fund: 10, documents: ['bank_statements'] }),
      [
        product('refit', 'Refit and expansion loan', 'term_loan', 'GBP', [20_000, 400_000], { rate: [9, 14], term: [12, 60], purposes: ['equipment', 'expansion', 'refinancing', 'property'] }),
        product('advance', 'Card takings advance', 'merchant_cash_advance', 'GBP', [5_000, 150_000], { term: [3, 12], purposes: ['working_capital', 'inventory'] }),
      ],
    ),
    funder(
      'rcpt_keystone',
      'Keystone Vehicle Finance',
      box({ min_months_trading: 12, min_annual_revenue: 50_000, industries: ['transport_logistics', 'construction', 'agriculture', 'other'], days_to_fund: 7, documents: ['bank_statements', 'owner_id'] }),
      [product('vehicle', 'Commercial vehicle finance', 'asset_finance', 'GBP', [5_000, 400_000], { rate: [6, 10], term: [12, 60], purposes: ['equipment'], collateral: ['vehicle'] })],
    ),
    funder(
      'rcpt_oakmere',
      'Oakmere Healthcare Capital',
      box({ min_annual_revenue: 250_000, requires_profit: true, credit_bands: ['excellent', 'good'], industries: ['healthcare'], documents: ['bank_statements', 'annual_accounts', 'owner_id'] }),
      [
        product('practice', 'Practice loan', 'term_loan', 'GBP', [50_000, 3_000_000], { rate: [5.5, 8.5], term: [12, 120], purposes: ['equipment', 'property', 'expansion', 'acquisition', 'refinancing'], collateral: 'any' }),
        product('clinical', 'Clinical equipment finance', 'equipment_finance', 'GBP', [10_000, 1_000_000], { rate: [5, 8], term: [12, 84], purposes: ['equipment', 'other'], collateral: ['equipment'] }),
      ],
    ),
    funder(
      'rcpt_liffey',
      'Liffey Business Lending',
      box({ min_annual_revenue: 200_000, countries: ['IE'] }),
      [product('sme', 'SME loan', 'term_loan', 'EUR', [25_000, 1_000_000], { rate: [6, 10], term: [12, 84] })],
    ),
    funder(
      'rcpt_atlantic',
      'Atlantic SME Credit',
      box({ min_months_trading: 12, countries: ['IE'], days_to_fund: 10, documents: ['bank_statements'] }),
      [
        product('credit', 'Working capital line', 'line_of_credit', 'EUR', [10_000, 300_000], { rate: [8, 13], term: [12, 36], purposes: ['working_capital', 'inventory'] }),
        product('invoices', 'Invoice finance', 'invoice_finance', 'EUR', [25_000, 1_000_000], { rate: [2, 4], purposes: ['working_capital'], collateral: ['receivables'] }),
      ],
    ),
    funder(
      'rcpt_continental',
      'Continental Equipment Leasing',
      box({ min_annual_revenue: 500_000, requires_profit: true, credit_bands: ['excellent', 'good'], countries: ['IE', 'DE', 'FR', 'NL'], days_to_fund: 14, documents: ['annual_accounts'] }),
      [product('lease', 'Equipment lease', 'equipment_finance', 'EUR', [20_000, 2_000_000], { rate: [4.5, 8], term: [24, 84], purposes: ['equipment'], collateral: ['equipment'] })],
    ),
    funder(
      'rcpt_cascade',
      'Cascade Commercial Bank',
      box({ min_months_trading: 36, min_annual_revenue: 1_000_000, requires_profit: true, credit_bands: ['excellent', 'good'], countries: ['US'], days_to_fund: 30, documents: ['bank_statements', 'annual_accounts', 'owner_id'] }),
      [
        product('term', 'Commercial term loan', 'term_loan', 'USD', [50_000, 5_000_000], { rate: [6.5, 10], term: [12, 120], collateral: 'any' }),
        product('line', 'Business line of credit', 'line_of_credit', 'USD', [25_000, 1_000_000], { rate: [8, 12], term: [12, 36], purposes: ['working_capital', 'inventory', 'expansion'] }),
      ],
    ),
    funder(
      'rcpt_liberty',
      'Liberty SBA Partners',
      box({ min_annual_revenue: 250_000, requires_profit: true, countries: ['US'], excluded_regions: [{ country: 'US', region: 'NY' }], days_to_fund: 60, documents: ['bank_statements', 'annual_accounts', 'owner_id', 'supporting_documents'] }),
      [product('sba', 'SBA-backed term loan', 'term_loan', 'USD', [50_000, 5_000_000], { rate: [7, 11], term: [60, 300], purposes: GENERAL, collateral: ['property', 'equipment', 'personal_guarantee'] })],
    ),
    funder(
      'rcpt_prairie',
      'Prairie Working Capital',
      box({ min_months_trading: 6, credit_bands: ['good', 'fair', 'poor'], countries: ['US'], excluded_regions: [{ country: 'US', region: 'NY' }, { country: 'US', region: 'CA' }], days_to_fund: 2, documents: ['bank_statements'] }),
      [
        product('advance', 'Merchant cash advance', 'merchant_cash_advance', 'USD', [10_000, 500_000], { term: [3, 18], purposes: ['working_capital', 'inventory'] }),
        product('line', 'Short-term credit line', 'line_of_credit', 'USD', [10_000, 250_000], { rate: [15, 30], term: [6, 24], purposes: ['working_capital', 'inventory'] }),
      ],
    ),
    funder(
      'rcpt_goldengate',
      'Golden Gate Equipment Finance',
      box({ min_annual_revenue: 250_000, countries: ['US'], excluded_regions: [{ country: 'US', region: 'NY' }], days_to_fund: 10 }),
      [product('equipment', 'Equipment loan', 'equipment_finance', 'USD', [25_000, 2_000_000], { rate: [6, 11], term: [24, 84], purposes: ['equipment'], collateral: ['equipment'] })],
    ),
    funder(
      'rcpt_bayou',
      'Bayou Invoice Funding',
      box({ min_months_trading: 6, min_annual_revenue: 200_000, industries: ['transport_logistics', 'manufacturing', 'construction', 'professional_services', 'healthcare'], countries: ['US'], days_to_fund: 5, documents: ['bank_statements'] }),
      [product('factoring', 'Invoice factoring', 'invoice_finance', 'USD', [25_000, 3_000_000], { rate: [1.5, 4], purposes: ['working_capital'], collateral: ['receivables'] })],
    ),
    funder(
      'rcpt_frontier',
      'Frontier Main Street Grants',
      box({ min_months_trading: 12, min_annual_revenue: 0, credit_bands: ['excellent', 'good', 'fair', 'poor'], industries: ['retail', 'hospitality', 'agriculture', 'other'], countries: ['US'], excluded_regions: [{ country: 'US', region: 'CA' }], days_to_fund: 120, documents: ['supporting_documents'] }),
      [product('mainstreet', 'Main street grant', 'grant', 'USD', [5_000, 50_000], { purposes: ['equipment', 'expansion', 'other'] })],
    ),
    funder(
      'rcpt_redwood',
      'Redwood Healthcare Lending',
      box({ min_annual_revenue: 500_000, requires_profit: true, credit_bands: ['excellent', 'good'], industries: ['healthcare'], countries: ['US'], days_to_fund: 30, documents: ['annual_accounts', 'owner_id'] }),
      [product('practice', 'Practice acquisition and real estate loan', 'term_loan', 'USD', [100_000, 5_000_000], { rate: [6, 9], term: [12, 180], purposes: ['property', 'equipment', 'expansion', 'acquisition', 'refinancing', 'other'], collateral: ['property', 'personal_guarantee'] })],
    ),
    funder(
      'rcpt_empirestate',
      'Empire State Capital',
      box({ min_months_trading: 12, countries: ['US'], days_to_fund: 14, documents: ['bank_statements', 'owner_id'] }),
      [product('small', 'Small business loan', 'term_loan', 'USD', [25_000, 1_000_000], { rate: [8, 12], term: [12, 60] })],
    ),
    funder(
      'rcpt_northernlights',
      'Northern Lights Asset Finance',
      box({ min_months_trading: 12, excluded_regions: [{ country: 'GB', region: 'Northern Ireland' }], days_to_fund: 14 }),
      [product('assets', 'Hard asset finance', 'asset_finance', 'GBP', [10_000, 1_000_000], { rate: [6, 10], term: [12, 60], purposes: ['equipment'], collateral: ['vehicle', 'equipment'] })],
    ),
    funder(
      'rcpt_sterling',
      'Sterling Merchant Funding',
      box({ min_months_trading: 4, min_annual_revenue: 60_000, credit_bands: ['good', 'fair', 'poor'], industries: ['retail', 'hospitality', 'other', 'healthcare', 'professional_services'], days_to_fund: 2, documents: ['bank_statements'] }),
      [product('mca', 'Merchant cash advance', 'merchant_cash_advance', 'GBP', [3_000, 200_000], { term: [3, 12], purposes: ['working_capital', 'inventory', 'equipment'] })],
    ),
    funder(
      'rcpt_crown',
      'Crown Property Finance',
      box({ min_annual_revenue: 300_000, requires_profit: true, credit_bands: ['excellent', 'good'], days_to_fund: 60, documents: ['annual_accounts', 'owner_id', 'supporting_documents'] }),
      [product('property', 'Property investment loan', 'term_loan', 'GBP', [150_000, 10_000_000], { rate: [5, 7.5], term: [60, 300], purposes: ['property', 'refinancing'], collateral: ['property'] })],
    ),
  ];
}
