import { BusinessStagePage } from '@/lib/portal';
import { BusinessParams } from '@/server/businesses/params';
import { readBusinessStatus } from '@/server/businesses/status';
import { readWorkflowStages } from '@/server/http/workflow-stages';
import { route } from '@/server/http/route';

// GET /api/businesses/[businessId]/stages – the stages of the business's pipeline, in order (the targets of a stage transition)
export const GET = route({ roles: ['staff'], params: BusinessParams }, async ({ params, req, upstream }) => {
  const status = await readBusinessStatus(params.businessId, req.signal);
  const stages = await readWorkflowStages(status.data.business.workflow, BusinessStagePage, req.signal);
  upstream.requestId = stages.requestId;
  return { body: stages.view };
});
