import 'server-only';
import { Deal } from '@/lib/portal';
import { portalRequest, routes } from '@/server/portal';

export function readDeal(dealId: string) {
  return portalRequest({ path: routes.deal(dealId), schema: Deal });
}
