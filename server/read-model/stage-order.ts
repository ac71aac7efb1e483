import 'server-only';
import type { StageCount } from '@/lib/bff/workspace';
import { BusinessStagePage } from '@/lib/portal';
import { log } from '@/server/log';
import { portalRequest, routes } from '@/server/portal';

/**
 * Counts by stage in each pipeline's own order, empty stages included: the read model knows which stages hold
 * businesses, the pipeline's stage list (one read per pipeline) knows their order. When that read fails, the
 * counts stay as they are (by name).
 */
export async function inPipelineOrder(counts: StageCount[], signal?: AbortSignal): Promise<StageCount[]> {
  const pipelines = [...new Map(counts.map((c) => [c.pipeline.id, c.pipeline])).values()];
  try {
    const ordered = await Promise.all(
      pipelines.map(async (pipeline) => {
        const res = await portalRequest({ path: routes.businessPipelineStages(pipeline.id), schema: BusinessStagePage, query: { page_size: 100 }, signal });
        return [...res.data.items]
          .sort((x, y) => x.order - y.order)
          .map((s) => ({ pipeline, stage: { id: s.id, name: s.name }, count: counts.find((c) => c.stage.id === s.id)?.count ?? 0 }));
      }),
    );
    return ordered.flat();
  } catch (e) {
    log.warn('stage order could not be read', { error: String(e) });
    return counts;
  }
}
