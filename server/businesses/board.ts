import 'server-only';
import { closingStageIds } from '@/lib/bff/closing-stages';
import type { BoardView } from '@/lib/bff/workspace';
import { BusinessPipelinePage, BusinessStagePage } from '@/lib/portal';
import type { Db } from '@/server/db/types';
import { portalRequest, routes } from '@/server/portal';
import { boardCards } from '@/server/read-model/board';
import { readFreshness } from '@/server/read-model/queries';
import { readWorkflowStages } from '@/server/workflows/stages';

const PER_STAGE = 50;

/**
 * The board of one pipeline (the first when none or an unknown one is asked for): its stages from the
 * Portal, its cards from the read model. Null when the Portal has no business pipeline at all.
 */
export async function readBoard(db: Db, pipelineId: string | undefined): Promise<BoardView | null> {
  const pipelines = await portalRequest({ path: routes.businessPipelines(), schema: BusinessPipelinePage, query: { page_size: 100 } });
  const pipeline = pipelines.data.items.find((p) => p.id === pipelineId) ?? pipelines.data.items[0];
  if (!pipeline) return null;
  const named = { id: pipeline.id, name: pipeline.name };
  const [stages, { cards, totals }, freshness] = await Promise.all([
    readWorkflowStages({ stages_url: pipeline.stages_url, pipeline: named, stage: { id: '' } }, BusinessStagePage),
    boardCards(db, pipeline.id, PER_STAGE),
    readFreshness(db),
  ]);
  const closing = closingStageIds(stages.view.items);
  return {
    pipeline: named,
    pipelines: pipelines.data.items.map((p) => ({ id: p.id, name: p.name })),
    stages: stages.view.items.map((s) => ({ id: s.id, name: s.name, closing: closing.has(s.id), total: totals.get(s.id) ?? 0 })),
    cards,
    per_stage: PER_STAGE,
    freshness,
  };
}
