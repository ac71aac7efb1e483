import 'server-only';
import { api } from '@/lib/api/endpoints';
import { Deal, DealStagePage } from '@/lib/portal';
import { DealParams } from '@/server/http/path-params';
import { routes } from '@/server/portal';
import { recordDealStage } from '@/server/read-model/record';
import { workflowRoutes } from '@/server/workflows/workflow-routes';
import { readDeal } from './read-deal';
import { dealView } from './deal-views';

/** The audit log files a deal's moves under its deal application. */
const shown = (deal: Deal, etag: string) => {
  const view = dealView(deal, etag);
  return { view, applicationId: view.application?.id ?? null };
};

/** A deal's stages and moves: the move and a 412 both reply with the deal. */
export const dealWorkflowRoutes = workflowRoutes({
  idParam: 'dealId',
  endpoints: { stages: api.dealStages.GET, stageTransitions: api.dealStageTransitions.POST },
  params: DealParams,
  read: readDeal,
  workflowOf: (deal) => deal.workflow,
  stagePage: DealStagePage,
  current: (deal, etag) => {
    const { view, applicationId } = shown(deal, etag);
    return { body: view, applicationId };
  },
  transition: {
    path: routes.dealStageTransitions,
    schema: Deal,
    reply: (deal, etag) => {
      const { view, applicationId } = shown(deal, etag);
      return { body: { deal: view }, applicationId };
    },
    record: (db, _id, deal) => recordDealStage(db, deal),
  },
  audit: { operation: 'deal.stage_transition', type: 'deal' },
});
