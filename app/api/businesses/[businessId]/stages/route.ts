import { businessWorkflowRoutes } from '@/server/businesses/workflow';

// GET /api/businesses/[businessId]/stages – the stages of the business's pipeline, in order (the targets of a stage transition)
export const { GET } = businessWorkflowRoutes.stages;
