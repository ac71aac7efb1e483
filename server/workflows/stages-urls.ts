import 'server-only';
import { BoundedCache } from '@/lib/bounded-cache';
import type { BusinessStatusResult } from '@/lib/portal';
import { processWide } from '@/server/process-wide';

/** Where each business pipeline lists its stages, as business reads showed it (the spec's one way there). */
const stagesUrls = processWide('business-stages-urls', () => new BoundedCache<string, string>(1_000));

/** Remembers where a business's pipeline lists its stages (every business status read passes here). */
export function learnStagesUrl(status: BusinessStatusResult): void {
  const { workflow } = status.business;
  stagesUrls.set(workflow.pipeline.id, workflow.stages_url);
}

export const knownStagesUrl = (pipelineId: string): string | null => stagesUrls.get(pipelineId) ?? null;
