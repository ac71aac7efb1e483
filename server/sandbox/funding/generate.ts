import { PRODUCT_KINDS, type ProductKind } from '@/lib/portal';
import { mulberry32 } from '../controls/faults';
import { FUNDING_PURPOSES, INDUSTRIES } from '../seed/funding-contract';
import { COLLATERAL_KINDS, CREDIT_BANDS, FUNDER_DOCUMENTS, type CollateralKind, type FunderDocument, type FunderProduct, type FunderProfile } from './types';

/*
 * Generated funders for benchmarks and paging tests (the test control PUT /_sandbox/funders): varied but
 * deterministic. One seeded PRNG stream, so the same seed always gives the same funders, and a larger count
 * keeps the first ones unchanged.
 */

const FIRST = ['Bright', 'North', 'Silver', 'Granite', 'Harbour', 'Meadow', 'River', 'Summit', 'Oak', 'Cedar', 'Falcon', 'Anchor', 'Beacon', 'Copper', 'Willow', 'Atlas'];
const SECOND = ['Bridge', 'Field', 'Stone', 'Gate', 'Point', 'Vale', 'Crest', 'Ridge', 'Park', 'Wharf', 'Cross', 'Lane'];
const SUFFIX = ['Capital', 'Finance', 'Lending', 'Credit', 'Partners', 'Funding', 'Business Finance', 'Growth Fund'];
const REGIONS: Record<string, string[]> = {
  GB: ['Northern Ireland', 'Scotland', 'Wales', 'Cornwall'],
  US: ['NY', 'CA', 'TX', 'FL', 'NV'],
  IE: ['Donegal', 'Kerry'],
};
const CURRENCY: Record<string, string> = { GB: 'GBP', US: 'USD', IE: 'EUR' };
const AMOUNTS = [1_000, 5_000, 10_000, 25_000, 50_000, 100_000, 250_000, 500_000, 1_000_000, 2_500_000, 5_000_000];
const DOCUMENTS = Object.keys(FUNDER_DOCUMENTS) as FunderDocument[];

type Rng = () => number;
const int = (rng: Rng, min: number, max: number) => min + Math.floor(rng() * (max - min + 1));
const pick = <T>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng() * list.length)]!;
/** A non-empty random subset, in the list's own order. */
const some = <T>(rng: Rng, list: readonly T[], chance: number): T[] => {
  const out = list.filter(() => rng() < chance);
  return out.length > 0 ? out : [pick(rng, list)];
};
const round2 = (n: number) => Math.round(n * 4) / 4;

function generatedProduct(rng: Rng, index: number, kind: ProductKind, currency: string): FunderProduct {
  const lo = int(rng, 0, AMOUNTS.length - 3);
  const hi = int(rng, lo + 1, AMOUNTS.length - 1);
  const rateless = kind === 'grant' || kind === 'merchant_cash_advance';
  const termless = kind === 'grant' || kind === 'invoice_finance';
  const rateMin = round2(3 + rng() * 10);
  const termMin = pick(rng, [3, 6, 12, 24, 36]);
  const secured = kind === 'equipment_finance' || kind === 'asset_finance' || kind === 'invoice_finance' || rng() < 0.3;
  const accepted: CollateralKind[] =
    kind === 'invoice_finance' ? ['receivables'] : kind === 'equipment_finance' || kind === 'asset_finance' ? ['equipment', 'vehicle'] : rng() < 0.5 ? [] : some(rng, COLLATERAL_KINDS, 0.3);
  return {
    key: `p${index}`,
    name: `${kind.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase())} ${index + 1}`,
    kind,
    currency,
    amount: { min: AMOUNTS[lo]!, max: AMOUNTS[hi]! },
    rate: rateless ? null : { min: rateMin, max: round2(rateMin + 1 + rng() * 8) },
    term_months: termless ? null : { min: termMin, max: termMin + pick(rng, [12, 24, 48, 84, 120]) },
    purposes: rng() < 0.35 ? null : some(rng, FUNDING_PURPOSES, 0.4),
    requires_collateral: kind !== 'grant' && secured,
    collateral_accepted: kind !== 'grant' && secured ? accepted : [],
  };
}

/** `count` funders from `seed`; recipient ids `rcpt_g<seed>x<n>`. */
export function generateFunders(count: number, seed: number): FunderProfile[] {
  const rng = mulberry32(seed);
  const out: FunderProfile[] = [];
  for (let i = 0; i < count; i++) {
    const country = pick(rng, ['GB', 'GB', 'GB', 'US', 'US', 'IE']);
    const industries = rng() < 0.6 ? null : some(rng, INDUSTRIES, 0.3);
    const products = Array.from({ length: int(rng, 1, 3) }, (_, p) => generatedProduct(rng, p, pick(rng, PRODUCT_KINDS), CURRENCY[country]!));
    out.push({
      recipient_id: `rcpt_g${seed.toString(36)}x${(i + 1).toString(36)}`,
      name: `${pick(rng, FIRST)} ${pick(rng, SECOND)} ${pick(rng, SUFFIX)} ${i + 1}`,
      products,
      lending: {
        min_months_trading: pick(rng, [0, 3, 6, 12, 24, 36, 60]),
        min_annual_revenue: pick(rng, [0, 25_000, 50_000, 100_000, 250_000, 500_000, 1_000_000]),
        requires_profit: rng() < 0.3,
        credit_bands: CREDIT_BANDS.slice(0, int(rng, 1, CREDIT_BANDS.length)),
        industries,
        excluded_industries: industries === null && rng() < 0.3 ? [pick(rng, INDUSTRIES)] : [],
        countries: rng() < 0.2 ? ['GB', 'IE'] : [country],
        excluded_regions: rng() < 0.25 ? [{ country, region: pick(rng, REGIONS[country]!) }] : [],
        days_to_fund: pick(rng, [2, 5, 7, 10, 14, 21, 30, 45, 60, 90]),
        documents: some(rng, DOCUMENTS, 0.4),
      },
    });
  }
  return out;
}
