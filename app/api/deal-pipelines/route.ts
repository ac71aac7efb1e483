import { ListQuery } from '@/lib/bff/businesses';
import { DealPipelinePage } from '@/lib/portal';
import { pipelineListView } from '@/server/businesses/business-views';
import { route } from '@/server/http/route';
import { portalRequest, routes } from '@/server/portal';

// GET /api/deal-pipelines – a page of the Portal's deal pipelines (page_size, cursor)
export const GET = route({ roles: ['staff'], query: ListQuery }, async ({ query }) => {
  const res = await portalRequest({ path: routes.dealPipelines(), schema: DealPipelinePage, query });
  return { body: pipelineListView(res.data) };
});
