import { ParticipantList } from '@/lib/portal';
import { BusinessParams } from '@/server/http/path-params';
import { peopleView } from '@/server/businesses/business-views';
import { route } from '@/server/http/route';
import { etagHeader } from '@/server/http/headers';
import { portalRequest, routes } from '@/server/portal';

// GET /api/businesses/[businessId]/people – the business's people (contacts) with their tags
export const GET = route({ roles: ['staff'], params: BusinessParams }, async ({ params }) => {
  const res = await portalRequest({ path: routes.businessPeople(params.businessId), schema: ParticipantList });
  return { body: peopleView(res.data), headers: etagHeader(res.etag) };
});
