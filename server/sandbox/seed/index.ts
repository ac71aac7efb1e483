import { DEAL_CONTRACT_VERSION, buildDealContract } from './deal-contract';
import { buildDeals } from './deals';
import { buildDemoPortal } from './demo-portal';
import { buildFundingContract } from './funding-contract';
import { buildLargeContract } from './large-contract';
import type { SeedData } from './types';

export { DEAL_CONTRACT_VERSION };
export type * from './types';

/**
 * The sandbox's seed: deterministic (no clock, no randomness; times are relative via created_minutes_ago)
 * and built fresh on every call, so a reset can hand the store a new copy it is free to mutate.
 */
export function buildSeed(): SeedData {
  const funding = buildFundingContract();
  const large = buildLargeContract();
  const deal = buildDealContract();
  return {
    ...buildDemoPortal({ large }),
    ...buildDeals(),
    contracts: { [funding.contract_version]: funding, [large.contract_version]: large, [deal.contract_version]: deal },
  };
}
