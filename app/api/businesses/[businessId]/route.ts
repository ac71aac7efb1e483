import { readBusinessStatus } from '@/server/businesses/status';
import { BusinessParams } from '@/server/http/path-params';
import { businessView } from '@/server/businesses/business-views';
import { route } from '@/server/http/route';
import { etagHeader } from '@/server/http/headers';

// GET /api/businesses/[businessId] – the business with its workflow stage and application
export const GET = route({ roles: ['staff'], params: BusinessParams }, async ({ params }) => {
  const res = await readBusinessStatus(params.businessId);
  const etag = res.etag ?? '';
  return { body: { business: businessView(res.data, etag) }, headers: etagHeader(etag) };
});
