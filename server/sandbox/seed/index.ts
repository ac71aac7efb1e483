import { DEAL_CONTRACT_VERSION, buildDealContract } from './deal-contract';
import { CRITERIA_CONTRACT_VERSION, buildCriteriaContract } from './criteria-contract';
import { buildDeals } from './deals';
import { buildFunders } from './funders';
import { buildProjects } from './projects';
import { buildDemoPortal } from './demo-portal';
import { buildFundingContract } from './funding-contract';
import { buildLargeContract } from './large-contract';
import type { SeedData } from './types';

export { CRITERIA_CONTRACT_VERSION, DEAL_CONTRACT_VERSION };
export type * from './types';

/**
 * The sandbox's seed: deterministic (no clock, no randomness; times are relative via created_minutes_ago)
 * and built fresh on every call, so a reset can hand the store a new copy it is free to mutate.
 */
export function buildSeed(): SeedData {
  const funding = buildFundingContract();
  const large = buildLargeContract();
  const deal = buildDealContract();
  const criteria = buildCriteriaContract();
  const deals = buildDeals();
  const funders = buildFunders();
  // Every funder is a recipient: those deals were made for first, then the others in funder order.
  const known = new Set(deals.recipients.map((r) => r.id));
  const recipients = [...deals.recipients, ...funders.filter((f) => !known.has(f.recipient_id)).map((f) => ({ id: f.recipient_id, name: f.name }))];
  return {
    ...buildDemoPortal({ large }),
    ...deals,
    recipients,
    funders,
    projects: buildProjects(),
    contracts: {
      [funding.contract_version]: funding,
      [large.contract_version]: large,
      [deal.contract_version]: deal,
      [criteria.contract_version]: criteria,
    },
  };
}
