import { PageQuery, type Permission } from '@/lib/portal';
import type { z } from 'zod';
import type { RouteDef } from '../http/context';
import { notFound } from '../http/errors';
import { keysetPage, pageQuery } from '../http/paging';
import type { Sandbox } from '../sandbox';
import type { SeedPipeline } from '../seed/types';
import { COLLECTIONS } from './collections';

interface PipelineKind {
  /** `business` or `deal`: path `<kind>-pipelines/`, objects `<kind>_pipeline` and `<kind>_stage`. */
  kind: keyof typeof COLLECTIONS;
  pipelines: (sb: Sandbox) => SeedPipeline[];
  stagesUrl: (sb: Sandbox, pipelineId: string) => string;
  pipelinePage: z.ZodType;
  stagePage: z.ZodType;
}

/** GET <kind>-pipelines/ and GET <kind>-pipelines/{id}/stages/: the same two reads for businesses and deals. */
export function pipelineRoutes(k: PipelineKind): RouteDef[] {
  const access: Permission[] = [`${COLLECTIONS[k.kind]}:read`];
  const tag = COLLECTIONS[k.kind];
  return [
    {
      // GET <kind>-pipelines/ – the Portal's pipelines of this kind
      method: 'GET',
      path: `${k.kind}-pipelines/`,
      access,
      query: PageQuery,
      summary: `List ${k.kind} pipelines`,
      tag,
      response: k.pipelinePage,
      handle: ({ sb, query }) => {
        const page = keysetPage({ sb, items: k.pipelines(sb), keyOf: (_p, i) => i, scope: `${k.kind}-pipelines`, ...pageQuery(query), backward: true });
        return {
          status: 200,
          body: { ...page, items: page.items.map((p) => ({ id: p.id, object: `${k.kind}_pipeline`, name: p.name, stages_url: k.stagesUrl(sb, p.id) })) },
        };
      },
    },
    {
      // GET <kind>-pipelines/{id}/stages/ – a pipeline's stages in order
      method: 'GET',
      path: `${k.kind}-pipelines/:id/stages/`,
      access,
      query: PageQuery,
      summary: `List the stages of a ${k.kind} pipeline`,
      tag,
      response: k.stagePage,
      handle: ({ sb, params, query }) => {
        const pipeline = k.pipelines(sb).find((p) => p.id === params.id);
        if (!pipeline) throw notFound(`${k.kind} pipeline`);
        const page = keysetPage({ sb, items: pipeline.stages, keyOf: (_s, i) => i, scope: `${k.kind}-stages:${pipeline.id}`, ...pageQuery(query), backward: true });
        return {
          status: 200,
          body: {
            ...page,
            items: page.items.map((s) => ({
              id: s.id,
              object: `${k.kind}_stage`,
              name: s.name,
              order: pipeline.stages.indexOf(s),
              pipeline: { id: pipeline.id, name: pipeline.name },
            })),
          },
        };
      },
    },
  ];
}
