import 'server-only';
import { closingStageIds } from '@/lib/bff/closing-stages';
import type { BoardView } from '@/lib/bff/workspace';
import { BusinessStagePage } from '@/lib/portal';
import type { Db } from '@/server/db/types';
import { boardCards } from '@/server/read-model/board';
import { readFreshness } from '@/server/read-model/queries';
import { listBusinessPipelines, stagesUrlOf } from '@/server/workflows/business-pipelines';
import { readWorkflowStages } from '@/server/workflows/stages';

const PER_STAGE = 50;

/**
 * The board of one pipeline (the first when none or an unknown one is asked for): its stages from the
 * Portal, its cards from the read model. Null when no business pipeline is known (the Portal lists none, or,
 * where it lists no pipelines at all, no business is in one yet).
 */
export async function readBoard(db: Db, pipelineId: string | undefined): Promise<BoardView | null> {
  const pipelines = await listBusinessPipelines(db);
  const pipeline = pipelines.find((p) => p.id === pipelineId) ?? pipelines[0];
  if (!pipeline) return null;
  const stagesUrl = pipeline.stages_url ?? (await stagesUrlOf(db, pipeline.id));
  if (!stagesUrl) return null;
  const named = { id: pipeline.id, name: pipeline.name };
  const [stages, { cards, totals }, freshness] = await Promise.all([
    readWorkflowStages({ stages_url: stagesUrl, pipeline: named, stage: { id: '' } }, BusinessStagePage),
    boardCards(db, pipeline.id, PER_STAGE),
    readFreshness(db),
  ]);
  const closing = closingStageIds(stages.view.items);
  return {
    pipeline: named,
    pipelines: pipelines.map((p) => ({ id: p.id, name: p.name })),
    stages: stages.view.items.map((s) => ({ id: s.id, name: s.name, closing: closing.has(s.id), total: totals.get(s.id) ?? 0 })),
    cards,
    per_stage: PER_STAGE,
    freshness,
  };
}
