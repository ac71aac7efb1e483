import { PRODUCT_KINDS } from '@/lib/portal';

const w = (key: string, value: unknown, field_key = 'value') => ({ block_key: key, schema_key: key, field_key, value });

/** Criteria answers that every seeded product kind can screen: the match-run benchmarks' project. */
export const BENCH_CRITERIA_ANSWERS = [
  w('funding_amount', 250_000),
  w('funding_currency', 'gbp'),
  w('funding_purpose', ['equipment', 'working_capital']),
  w('product_kinds', [...PRODUCT_KINDS]),
  w('funding_timeline', 'within_one_month'),
  w('preferred_term_months', 60),
  w('date_established', '2015-03-01'),
  w('industry', 'manufacturing'),
  w('business_address', 'GB', 'country'),
  w('business_address', 'West Yorkshire', 'region'),
  w('annual_revenue', 1_850_000),
  w('net_profit', 142_500),
  w('credit_band', 'good'),
  w('can_offer_collateral', true),
  w('collateral_types', ['equipment', 'personal_guarantee']),
];
