import 'server-only';
import { FundingMatch, type Deal } from '@/lib/portal';
import { portalRequest } from '@/server/portal';

export interface DealMatchView {
  id: string;
  recipient: string;
  product: string;
  fit: string;
  score: number;
}

/**
 * The match a deal was made from, read through the link the deal carries (DESIGN.md §6). Null when the deal
 * names none (made without a match, or by a Portal whose deals do not name theirs).
 */
export async function readDealMatch(deal: Deal): Promise<DealMatchView | null> {
  if (!deal.match) return null;
  const m = (await portalRequest({ url: deal.match.url, schema: FundingMatch })).data;
  return { id: m.id, recipient: m.recipient.name, product: m.product.name, fit: m.fit, score: m.score };
}
