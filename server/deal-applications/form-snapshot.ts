import 'server-only';
import { DealApplication } from '@/lib/portal';
import { readSnapshotOf, type FormSnapshot } from '@/server/applications/form-snapshot';
import { portalRequest, routes } from '@/server/portal';
import { dealLinksFrom, knownDealApplicationLinks, rememberDealApplicationLinks } from './links';
import { dealApplicationView } from './views';

/** The form snapshot of a deal application: the same reads as an intake application's (kind 'deal'). */
export function readDealFormSnapshot(dealApplicationId: string, signal?: AbortSignal): Promise<FormSnapshot> {
  return readSnapshotOf(
    {
      known: knownDealApplicationLinks(dealApplicationId),
      async readApplication(sig) {
        const res = await portalRequest({ path: routes.dealApplication(dealApplicationId), schema: DealApplication, signal: sig });
        return { raw: res.data, view: dealApplicationView(res.data, res.etag ?? ''), contractUrl: res.data.contract_url };
      },
      remember(app, contract) {
        rememberDealApplicationLinks(dealApplicationId, app, contract);
        return dealLinksFrom(app, contract);
      },
    },
    signal,
  );
}
