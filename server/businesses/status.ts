import 'server-only';
import { BusinessStatusResult } from '@/lib/portal';
import { portalRequest, routes } from '@/server/portal';
import { learnStagesUrl } from '@/server/workflows/stages-urls';

/** A business as the browser sees it comes from its status read: name, revision, workflow and application. */
export async function readBusinessStatus(businessId: string) {
  const res = await portalRequest({ path: routes.businessStatus(businessId), schema: BusinessStatusResult });
  learnStagesUrl(res.data);
  return res;
}
