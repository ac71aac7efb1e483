import 'server-only';
import { BusinessStatusResult } from '@/lib/portal';
import { portalRequest, routes } from '@/server/portal';

/** A business as the browser sees it comes from its status read: name, revision, workflow and application. */
export function readBusinessStatus(businessId: string) {
  return portalRequest({ path: routes.businessStatus(businessId), schema: BusinessStatusResult });
}
