import type { FormSnapshotView } from '@/lib/bff/form-snapshot';
import { readDealFormSnapshot } from '@/server/deal-applications/form-snapshot';
import { DealApplicationParams } from '@/server/deal-applications/params';
import { route } from '@/server/http/route';
import { etagHeader } from '@/server/http/params';

// GET /api/deal-applications/[dealApplicationId]/form – everything the deal application's form opens with
export const GET = route({ roles: ['staff'], params: DealApplicationParams }, async ({ params, req, upstream }) => {
  const { requestId, ...snapshot } = await readDealFormSnapshot(params.dealApplicationId, req.signal);
  upstream.requestId = requestId;
  const body: FormSnapshotView = snapshot;
  // The answers ETag: what the browser quotes in If-Match on its first answer write.
  return { body, headers: etagHeader(snapshot.answers.etag) };
});
