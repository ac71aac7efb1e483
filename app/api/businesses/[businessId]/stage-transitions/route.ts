import { businessWorkflowRoutes } from '@/server/businesses/workflow';

// POST /api/businesses/[businessId]/stage-transitions – move the business to another stage; a 412 comes back with the business as it is now
export const { POST } = businessWorkflowRoutes.stageTransitions;
