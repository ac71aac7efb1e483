import {
  BusinessId,
  Deal,
  DealCreateBody,
  DealPage,
  DealPipelinePage,
  DealStagePage,
  PageQuery,
  RecipientPage,
  type ErrorDetail,
} from '@/lib/portal';
import type { RouteDef } from '../http/context';
import { newApplication } from './new-application';
import { pipelineRoutes } from './pipelines';
import { seqPage } from './seq-page';
import { stageTransitionRoute } from './stage-transitions';
import { SandboxError, notFound } from '../http/errors';
import { keysetPage, pageQuery } from '../http/paging';
import type { Sandbox } from '../sandbox';
import { newId, nextSeq } from '../store/ids';
import type { DealRec } from '../store/types';
import { dealEtag, dealView, dealWorkflow } from './views';
import { dealLinkOf, linkDeal } from '../funding/deal-link';

/** Deals list query: paging plus an optional business filter (a biz_ id; anything else is a 400). */
const DealsQuery = PageQuery.extend({ business_id: BusinessId.optional() });

function dealOf(sb: Sandbox, id: string): DealRec {
  const d = sb.state.deals[id];
  if (!d) throw notFound('deal');
  return d;
}

function createDeal(sb: Sandbox, body: DealCreateBody): DealRec {
  const state = sb.state;
  const details: ErrorDetail[] = [];
  if (!state.businesses[body.business_id]) {
    details.push({ code: 'unknown_business', message: `No business ${body.business_id} exists.`, parameter: 'business_id' });
  }
  if (body.recipient_id !== undefined && !state.recipients.some((r) => r.id === body.recipient_id)) {
    details.push({ code: 'unknown_recipient', message: `No recipient ${body.recipient_id} exists; see recipients/.`, parameter: 'recipient_id' });
  }
  if (details.length > 0) throw new SandboxError('validation_failed', 'The deal cannot be created.', details);

  const pipeline = state.deal_pipelines[0];
  const stage = pipeline?.stages[0];
  if (!pipeline || !stage) throw new Error('the sandbox has no deal pipeline');
  const now = sb.now();
  const deal: DealRec = {
    id: newId(state, 'deal'),
    seq: nextSeq(state),
    name: body.name,
    business_id: body.business_id,
    recipient_id: body.recipient_id ?? null,
    pipeline_id: pipeline.id,
    stage_id: stage.id,
    revision: 0,
    application_id: newId(state, 'dealApplication'),
    created_at: now,
    updated_at: now,
  };
  state.deals[deal.id] = deal;
  state.applications[deal.application_id] = newApplication(
    { id: deal.application_id, kind: 'deal', business_id: deal.business_id, deal_id: deal.id, contract_version: state.default_deal_contract_version },
    now,
  );
  sb.changed();
  return deal;
}

/** What deal events carry: the ids, the stage and the revision. */
function dealEventData(sb: Sandbox, d: DealRec) {
  const { stage, status } = dealWorkflow(sb, d);
  return {
    deal_id: d.id,
    business_id: d.business_id,
    recipient_id: d.recipient_id,
    application_id: d.application_id,
    pipeline_id: d.pipeline_id,
    stage: { id: stage.id, name: stage.name },
    status,
    revision: d.revision,
    ...(d.project_id ? { project_id: d.project_id, match_id: d.match_id ?? null } : {}),
  };
}

export const dealRoutes: RouteDef[] = [
  {
    // GET deals/ – a page of deals, oldest first; business_id narrows it to one business's deals
    method: 'GET',
    path: 'deals/',
    access: ['deals:read'],
    query: DealsQuery,
    summary: 'List deals',
    tag: 'deals',
    response: DealPage,
    handle: ({ sb, query }) => {
      const businessId = query.business_id as string | undefined;
      const deals = Object.values(sb.state.deals).filter((d) => businessId === undefined || d.business_id === businessId);
      const page = seqPage(sb, deals, `deals:${businessId ?? ''}`, query);
      return { status: 200, body: { ...page, items: page.items.map((d) => dealView(sb, d)) } };
    },
  },
  {
    // POST deals/ – create a deal for the Portal itself (no recipient_id) or for a recipient (for a funding match: project_id and match_id), with its deal application
    method: 'POST',
    path: 'deals/',
    access: ['deals:write'],
    idempotency: 'required',
    summary: 'Create a deal',
    tag: 'deals',
    requestBody: DealCreateBody,
    response: Deal,
    successStatus: 201,
    handle: async (ctx) => {
      const { sb } = ctx;
      const body = await ctx.body(DealCreateBody);
      const link = dealLinkOf(sb, ctx.key, body);
      const deal = createDeal(sb, body);
      if (link) linkDeal(sb, link, deal);
      sb.events.publish('deal.created', dealEventData(sb, deal));
      return { status: 201, headers: { Location: sb.urls.deal(deal.id), ETag: dealEtag(deal) }, body: dealView(sb, deal) };
    },
  },
  {
    // GET deals/{id}/ – one deal
    method: 'GET',
    path: 'deals/:id/',
    access: ['deals:read'],
    summary: 'Read a deal',
    tag: 'deals',
    response: Deal,
    handle: ({ sb, params }) => {
      const d = dealOf(sb, params.id!);
      return { status: 200, headers: { ETag: dealEtag(d) }, body: dealView(sb, d) };
    },
  },
  stageTransitionRoute({
    kind: 'deal',
    response: Deal,
    find: dealOf,
    etag: dealEtag,
    workflow: dealWorkflow,
    publish: (sb, d, { from }) => sb.events.publish('deal.stage_changed', { ...dealEventData(sb, d), previous_stage: { id: from.id, name: from.name } }),
    reply: (sb, d) => dealView(sb, d),
  }),
  ...pipelineRoutes({
    kind: 'deal',
    pipelines: (sb) => sb.state.deal_pipelines,
    stagesUrl: (sb, id) => sb.urls.dealPipelineStages(id),
    pipelinePage: DealPipelinePage,
    stagePage: DealStagePage,
  }),
  {
    // GET recipients/ – the organisations a deal can be made for
    method: 'GET',
    path: 'recipients/',
    access: ['deals:read'],
    query: PageQuery,
    summary: 'List recipients',
    tag: 'deals',
    response: RecipientPage,
    handle: ({ sb, query }) => {
      const items = sb.state.recipients;
      const page = keysetPage({ sb, items, keyOf: (_r, i) => i, scope: 'recipients', ...pageQuery(query), backward: true });
      return { status: 200, body: { ...page, items: page.items.map((r) => ({ id: r.id, object: 'recipient', name: r.name })) } };
    },
  },
];
