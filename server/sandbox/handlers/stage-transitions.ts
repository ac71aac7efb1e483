import { StageTransitionBody } from '@/lib/portal';
import type { z } from 'zod';
import type { RouteDef } from '../http/context';
import { SandboxError } from '../http/errors';
import type { Sandbox } from '../sandbox';
import { COLLECTIONS } from './collections';
import type { SeedPipeline, SeedStage } from '../seed/types';

/** What moves along a pipeline: a business or a deal, whose ETag is made of its revision. */
interface Staged {
  id: string;
  stage_id: string;
  revision: number;
  updated_at: string;
}

interface Move {
  from: SeedStage;
  to: SeedStage;
  now: string;
}

interface StageTransitionKind<R extends Staged> {
  kind: keyof typeof COLLECTIONS;
  response: z.ZodType;
  find: (sb: Sandbox, id: string) => R;
  etag: (r: R) => string;
  workflow: (sb: Sandbox, r: R) => { pipeline: SeedPipeline; stage: SeedStage };
  /** Anything else the move changes on the record (a business's status date). */
  touch?: (r: R, now: string) => void;
  /** The event announcing the move, sent once it is stored. */
  publish: (sb: Sandbox, r: R, move: Move) => void;
  /** The reply's body. */
  reply: (sb: Sandbox, r: R, move: Move) => unknown;
}

/** POST <collection>/{id}/stage-transitions/: the same move, checks and refusals for businesses and deals. */
export function stageTransitionRoute<R extends Staged>(k: StageTransitionKind<R>): RouteDef {
  const collection = COLLECTIONS[k.kind];
  return {
    // POST <collection>/{id}/stage-transitions/ – move to another stage of its pipeline
    method: 'POST',
    path: `${collection}/:id/stage-transitions/`,
    ifMatch: 'required',
    access: [`${collection}:write`],
    idempotency: 'required',
    summary: `Move a ${k.kind} to another stage`,
    tag: collection,
    requestBody: StageTransitionBody,
    response: k.response,
    handle: async (ctx) => {
      const { sb, params } = ctx;
      const r = k.find(sb, params.id!);
      ctx.ifMatch(k.etag(r));
      const { stage_id } = await ctx.body(StageTransitionBody);
      const { pipeline, stage: from } = k.workflow(sb, r);
      const stage = pipeline.stages.find((s) => s.id === stage_id);
      if (!stage) {
        throw new SandboxError('validation_failed', `The stage is not part of the ${pipeline.name} pipeline.`, [
          { code: 'invalid_stage', message: `stage_id must be one of: ${pipeline.stages.map((s) => s.id).join(', ')}.`, parameter: 'stage_id' },
        ]);
      }
      if (stage.id === r.stage_id) {
        throw new SandboxError('conflict', `The ${k.kind} is already at the stage ${stage.name}.`, [
          { code: 'same_stage', message: 'Choose another stage.', parameter: 'stage_id' },
        ]);
      }
      const now = sb.now();
      r.stage_id = stage.id;
      r.revision += 1;
      r.updated_at = now;
      k.touch?.(r, now);
      sb.changed();
      const move = { from, to: stage, now };
      k.publish(sb, r, move);
      return { status: 200, headers: { ETag: k.etag(r) }, body: k.reply(sb, r, move) };
    },
  };
}
