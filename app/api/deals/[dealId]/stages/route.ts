import { dealWorkflowRoutes } from '@/server/deals/workflow';

// GET /api/deals/[dealId]/stages – the stages of the deal's pipeline, in order (the targets of a stage transition)
export const { GET } = dealWorkflowRoutes.stages;
