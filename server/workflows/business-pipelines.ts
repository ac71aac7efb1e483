import 'server-only';
import { BusinessPipelinePage } from '@/lib/portal';
import { readBusinessStatus } from '@/server/businesses/status';
import type { Db } from '@/server/db/types';
import { portalBaseUrl, portalCapabilities, portalRequest, routes } from '@/server/portal';
import { knownStagesUrl } from './stages-urls';

/*
 * The spec reaches a pipeline's stages only through the `stages_url` of a business's (or deal's) read, and lists
 * no pipelines at all. So the BFF learns each pipeline's stages_url from the business reads it makes anyway, and
 * uses DESIGN.md's `business-pipelines/` list and constructed stages path only where the Portal's document lists them.
 */

export interface KnownPipeline {
  id: string;
  name: string;
  /** Null when no read has shown it yet (stagesUrlOf finds it). */
  stages_url: string | null;
}

/**
 * The business pipelines: the Portal's list where its document offers one, else those the read model's businesses
 * stand in (a pipeline no business is in is not known then).
 */
export async function listBusinessPipelines(db: Db): Promise<KnownPipeline[]> {
  if ((await portalCapabilities()).has('GET', routes.businessPipelines())) {
    const res = await portalRequest({ path: routes.businessPipelines(), schema: BusinessPipelinePage, query: { page_size: 100 } });
    return res.data.items.map((p) => ({ id: p.id, name: p.name, stages_url: p.stages_url }));
  }
  const rows = await db.query<{ id: string; name: string }>(
    `SELECT pipeline_id AS id, min(pipeline_name) AS name FROM workspace_businesses
      WHERE pipeline_id IS NOT NULL AND pipeline_name IS NOT NULL GROUP BY pipeline_id ORDER BY 2, 1`,
  );
  return rows.map((r) => ({ ...r, stages_url: knownStagesUrl(r.id) }));
}

/**
 * Where a business pipeline lists its stages: a URL a read returned, else the constructed path where the document
 * lists it, else the stages_url of one business of that pipeline (one status read). Null when none is known.
 */
export async function stagesUrlOf(db: Db, pipelineId: string): Promise<string | null> {
  const known = knownStagesUrl(pipelineId);
  if (known) return known;
  const path = routes.businessPipelineStages(pipelineId);
  if ((await portalCapabilities()).has('GET', path)) return new URL(path, portalBaseUrl()).href;
  const row = await db.one<{ id: string }>(
    'SELECT id FROM workspace_businesses WHERE pipeline_id = $1 ORDER BY last_activity_at DESC NULLS LAST, id LIMIT 1',
    [pipelineId],
  );
  if (!row) return null;
  const res = await readBusinessStatus(row.id);
  return res.data.business.workflow.pipeline.id === pipelineId ? res.data.business.workflow.stages_url : null;
}
