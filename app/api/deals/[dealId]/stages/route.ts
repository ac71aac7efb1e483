import { DealStagePage } from '@/lib/portal';
import { readWorkflowStages } from '@/server/http/workflow-stages';
import { DealParams } from '@/server/deals/params';
import { readDeal } from '@/server/deals/read-deal';
import { route } from '@/server/http/route';

// GET /api/deals/[dealId]/stages – the stages of the deal's pipeline, in order (the targets of a stage transition)
export const GET = route({ roles: ['staff'], params: DealParams }, async ({ params, req, upstream }) => {
  const deal = await readDeal(params.dealId, req.signal);
  const stages = await readWorkflowStages(deal.data.workflow, DealStagePage, req.signal);
  upstream.requestId = stages.requestId;
  return { body: stages.view };
});
