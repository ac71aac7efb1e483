import { dealWorkflowRoutes } from '@/server/deals/workflow';

// POST /api/deals/[dealId]/stage-transitions – move the deal to another stage; a 412 comes back with the deal as it is now
export const { POST } = dealWorkflowRoutes.stageTransitions;
