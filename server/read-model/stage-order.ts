import 'server-only';
import type { StageCount } from '@/lib/bff/workspace';
import { BoundedCache } from '@/lib/bounded-cache';
import { BusinessStagePage } from '@/lib/portal';
import { appDb } from '@/server/db/app-db';
import { log } from '@/server/log';
import { processWide } from '@/server/process-wide';
import { stagesUrlOf } from '@/server/workflows/business-pipelines';
import { readWorkflowStages } from '@/server/workflows/stages';

/** A pipeline's stages change seldom; every home view would otherwise read each pipeline's list again. */
const STAGES_TTL_MS = 60_000;
const stageLists = processWide('home-stage-lists', () => new BoundedCache<string, { at: number; items: Array<{ id: string; name: string }> }>(200));

async function stagesOf(pipeline: { id: string; name: string }) {
  const held = stageLists.get(pipeline.id);
  if (held && Date.now() - held.at < STAGES_TTL_MS) return held.items;
  const url = await stagesUrlOf(await appDb(), pipeline.id);
  if (!url) throw new Error(`the stages of pipeline ${pipeline.id} are not known`);
  const { view } = await readWorkflowStages({ stages_url: url, pipeline, stage: { id: '' } }, BusinessStagePage);
  stageLists.set(pipeline.id, { at: Date.now(), items: view.items });
  return view.items;
}

/**
 * Counts by stage in each pipeline's own order, empty stages included: the read model knows which stages hold
 * businesses, the pipeline's stage list (read at its stages_url, kept a minute) knows their order. When that read
 * fails, the counts stay as they are (by name).
 */
export async function inPipelineOrder(counts: StageCount[]): Promise<StageCount[]> {
  const pipelines = [...new Map(counts.map((c) => [c.pipeline.id, c.pipeline])).values()];
  try {
    const ordered = await Promise.all(
      pipelines.map(async (pipeline) =>
        (await stagesOf(pipeline)).map((s) => ({ pipeline, stage: { id: s.id, name: s.name }, count: counts.find((c) => c.stage.id === s.id)?.count ?? 0 })),
      ),
    );
    return ordered.flat();
  } catch (e) {
    log.warn('stage order could not be read', { error: String(e) });
    return counts;
  }
}
