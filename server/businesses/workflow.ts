import 'server-only';
import { api } from '@/lib/api/endpoints';
import { BusinessStagePage, BusinessStageTransitionResult } from '@/lib/portal';
import { BusinessParams } from '@/server/http/path-params';
import { routes } from '@/server/portal';
import { recordBusinessStage } from '@/server/read-model/record';
import { workflowRoutes } from '@/server/workflows/workflow-routes';
import { readBusinessStatus } from './status';
import { businessView, stageTransitionView } from './business-views';

/** A business's stages and moves: the move replies with the transition, a 412 with the business. */
export const businessWorkflowRoutes = workflowRoutes({
  idParam: 'businessId',
  endpoints: { stages: api.businessStages.GET, stageTransitions: api.businessStageTransitions.POST },
  params: BusinessParams,
  read: readBusinessStatus,
  workflowOf: (status) => status.business.workflow,
  stagePage: BusinessStagePage,
  current: (status, etag) => ({ body: businessView(status, etag) }),
  transition: {
    path: routes.businessStageTransitions,
    schema: BusinessStageTransitionResult,
    reply: (transition, etag) => ({ body: { transition: stageTransitionView(transition, etag) } }),
    record: recordBusinessStage,
  },
  audit: { operation: 'business.stage_transition', type: 'business' },
});
