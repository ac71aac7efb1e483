import 'server-only';
import { FundingMatchPage } from '@/lib/portal';
import { portalRequest } from '@/server/portal';
import { linksOfProject } from './read';

// A project has a few dozen matches; the bound only stops a misbehaving upstream from looping us forever.
const MAX_PAGES = 10;

export interface DealMatchView {
  id: string;
  recipient: string;
  product: string;
  fit: string;
  score: number;
}

/**
 * The match a deal was made from: a deal names its project only, and the match its deal, so the project's
 * latest matches are walked for it. Null when none names the deal (a newer run replaced them).
 */
export async function matchOfDeal(projectId: string, dealId: string): Promise<DealMatchView | null> {
  const { matches } = await linksOfProject(projectId);
  let cursor: string | null = null;
  for (let n = 0; n < MAX_PAGES; n++) {
    const page: FundingMatchPage = (await portalRequest({ url: matches, schema: FundingMatchPage, query: { page_size: 100, cursor } })).data;
    const m = page.items.find((x) => x.deal?.id === dealId);
    if (m) return { id: m.id, recipient: m.recipient.name, product: m.product.name, fit: m.fit, score: m.score };
    cursor = page.next_cursor;
    if (!cursor) return null;
  }
  return null;
}
