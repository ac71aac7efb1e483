import { DealParams } from '@/server/http/path-params';
import { readDeal } from '@/server/deals/read-deal';
import { dealView } from '@/server/deals/deal-views';
import { route } from '@/server/http/route';
import { etagHeader } from '@/server/http/headers';

// GET /api/deals/[dealId] – one deal with its workflow stage, recipient and deal application
export const GET = route({ roles: ['staff'], params: DealParams }, async ({ params }) => {
  const res = await readDeal(params.dealId);
  const etag = res.etag ?? '';
  return { body: { deal: dealView(res.data, etag) }, headers: etagHeader(etag) };
});
