import {
  BusinessCreateBody,
  BusinessCreateResult,
  BusinessPage,
  BusinessPipelinePage,
  BusinessStagePage,
  BusinessStageTransitionResult,
  BusinessStatusResult,
  BusinessSummary,
  PageQuery,
  ParticipantList,
} from '@/lib/portal';
import type { RouteDef } from '../http/context';
import { versionEtag } from '../http/etag';
import { SandboxError } from '../http/errors';
import type { Sandbox } from '../sandbox';
import { newId, nextSeq, randomToken } from '../store/ids';
import type { BusinessRec } from '../store/types';
import { newApplication } from './new-application';
import { pipelineRoutes } from './pipelines';
import { seqPage } from './seq-page';
import { stageTransitionRoute } from './stage-transitions';
import { issueUpload } from './uploads';
import { applicationRef, businessEtag, businessSummary } from './views';

function pipelineOf(sb: Sandbox, b: BusinessRec) {
  const pipeline = sb.state.business_pipelines.find((p) => p.id === b.pipeline_id);
  const stage = pipeline?.stages.find((s) => s.id === b.stage_id);
  if (!pipeline || !stage) throw new Error(`business ${b.id} is at an unknown stage`);
  return { pipeline, stage };
}

function statusView(sb: Sandbox, b: BusinessRec) {
  const { pipeline, stage } = pipelineOf(sb, b);
  return {
    business: {
      id: b.id,
      object: 'business' as const,
      name: b.name,
      revision: b.revision,
      url: sb.urls.business(b.id),
      status: { pipeline: pipeline.name, stage: stage.name, updated_at: b.status_updated_at },
      workflow: {
        pipeline: { id: pipeline.id, name: pipeline.name },
        stage: { id: stage.id, name: stage.name },
        stages_url: sb.urls.businessPipelineStages(pipeline.id),
      },
      ...(b.is_sample ? { is_sample: true } : {}),
    },
    application: b.application_id ? applicationRef(sb, b.application_id) : null,
  };
}

export function createBusiness(sb: Sandbox, body: BusinessCreateBody, sourceChannel: string | null) {
  const now = sb.now();
  const { pipeline_id, stage_id } = sb.state.default_business_stage;
  const contract_version = sb.state.default_contract_version;
  const business: BusinessRec = {
    id: newId(sb.state, 'business'),
    seq: nextSeq(sb.state),
    name: body.name,
    pipeline_id,
    stage_id,
    revision: 0,
    status_updated_at: now,
    created_at: now,
    updated_at: now,
    source_channel_id: sourceChannel,
    application_id: newId(sb.state, 'application'),
    people: [],
    people_revision: 0,
  };
  if (body.contact) {
    business.people.push({
      id: newId(sb.state, 'person'),
      full_name: body.contact.full_name,
      email: body.contact.email,
      phone_number: body.contact.phone_number ?? '',
      company_name: body.contact.company_name ?? body.name,
      job_title: body.contact.job_title ?? '',
      notes: '',
      is_do_not_contact: false,
      is_primary: true,
      owner: null,
      tag_ids: [],
      created_at: now,
      updated_at: now,
    });
  }
  sb.state.businesses[business.id] = business;
  sb.state.applications[business.application_id] = newApplication(
    { id: business.application_id, kind: 'client_intake', business_id: business.id, contract_version },
    now,
  );
  return business;
}

export const businessRoutes: RouteDef[] = [
  {
    // GET businesses/ – a page of business summaries, oldest first
    method: 'GET',
    path: 'businesses/',
    access: ['businesses:read'],
    query: PageQuery,
    summary: 'List businesses',
    tag: 'businesses',
    response: BusinessPage,
    handle: ({ sb, query }) => {
      const page = seqPage(sb, Object.values(sb.state.businesses), 'businesses', query);
      return { status: 200, body: { ...page, items: page.items.map((b) => businessSummary(sb, b)) } };
    },
  },
  {
    // POST businesses/ – create a business with its client intake application
    method: 'POST',
    path: 'businesses/',
    access: ['businesses:write', 'leads:submit'],
    idempotency: 'required',
    summary: 'Create a business',
    tag: 'businesses',
    requestBody: BusinessCreateBody,
    response: BusinessCreateResult,
    successStatus: 201,
    handle: async (ctx) => {
      const { sb, key } = ctx;
      const body = await ctx.body(BusinessCreateBody);
      const channel = body.source_channel_id ?? null;
      const allowed = key.kind === 'source' ? key.channel_slugs : sb.state.channel_slugs;
      if (key.kind === 'source' && !channel) {
        throw new SandboxError('validation_failed', 'A source key must name the lead source.', [
          { code: 'required', message: `source_channel_id is required; one of: ${allowed.join(', ')}.`, parameter: 'source_channel_id' },
        ]);
      }
      if (channel && !allowed.includes(channel)) {
        throw new SandboxError('validation_failed', 'Unknown lead source.', [
          { code: 'invalid_channel', message: `source_channel_id must be one of: ${allowed.join(', ')}.`, parameter: 'source_channel_id' },
        ]);
      }
      const warnings: Array<{ code: string; message: string }> = [];
      const lower = body.name.toLowerCase();
      if (Object.values(sb.state.businesses).some((b) => b.name?.toLowerCase() === lower)) {
        warnings.push({ code: 'possible_duplicate', message: `A business named “${body.name}” already exists.` });
      }
      if (!body.contact) {
        warnings.push({ code: 'no_contact', message: 'No contact was given, so no client invitation was created.' });
      }
      const business = createBusiness(sb, body, channel);
      const app = sb.application(business.application_id);
      const index = sb.index(app);
      const file_uploads = index.topFields.filter((f) => f.isFile).map((f) => issueUpload(sb, app, f, null));
      sb.changed();
      sb.events.publish('business.created', { business_id: business.id, application_id: app.id, source_channel_id: channel });
      return {
        status: 201,
        headers: { Location: sb.urls.business(business.id), ETag: businessEtag(business) },
        body: {
          business: businessSummary(sb, business),
          application: applicationRef(sb, app.id),
          invitation_url: body.contact ? `${sb.urls.origin}/portal/invitations/${randomToken(12)}?application=${app.id}` : null,
          file_uploads,
          warnings,
        },
      };
    },
  },
  {
    // GET businesses/{id}/ – the business summary
    method: 'GET',
    path: 'businesses/:id/',
    access: ['businesses:read'],
    summary: 'Read a business',
    tag: 'businesses',
    response: BusinessSummary,
    handle: ({ sb, params }) => {
      const b = sb.business(params.id!);
      return { status: 200, body: businessSummary(sb, b), headers: { ETag: businessEtag(b) } };
    },
  },
  {
    // GET businesses/{id}/status/ – status, workflow and application
    method: 'GET',
    path: 'businesses/:id/status/',
    access: ['businesses:read'],
    summary: 'Business status',
    tag: 'businesses',
    response: BusinessStatusResult,
    handle: ({ sb, params }) => {
      const b = sb.business(params.id!);
      return { status: 200, body: statusView(sb, b), headers: { ETag: businessEtag(b) } };
    },
  },
  stageTransitionRoute({
    kind: 'business',
    response: BusinessStageTransitionResult,
    find: (sb, id) => sb.business(id),
    etag: businessEtag,
    workflow: pipelineOf,
    touch: (b, now) => {
      b.status_updated_at = now;
    },
    publish: (sb, b, { from, to }) =>
      sb.events.publish('business.stage_changed', {
        business_id: b.id,
        stage: { id: to.id, name: to.name },
        previous_stage: { id: from.id, name: from.name },
        revision: b.revision,
      }),
    reply: (_sb, b, { to, now }) => ({ id: b.id, object: 'business', stage: { id: to.id, name: to.name }, revision: b.revision, updated_at: now }),
  }),
  {
    // GET businesses/{id}/people/ – the business's people with their tags
    method: 'GET',
    path: 'businesses/:id/people/',
    access: ['people:read'],
    summary: 'List business people',
    tag: 'people',
    response: ParticipantList,
    handle: ({ sb, params }) => {
      const b = sb.business(params.id!);
      const tags = new Map(sb.state.tags.map((t) => [t.id, t]));
      return {
        status: 200,
        headers: { ETag: versionEtag('people', b.id, b.people_revision) },
        body: {
          object: 'participant_list',
          revision: b.people_revision,
          items: b.people.map(({ tag_ids, ...p }) => ({
            ...p,
            object: 'person',
            tags: tag_ids.flatMap((id) => {
              const t = tags.get(id);
              return t ? [{ id: t.id, name: t.name, color: t.color }] : [];
            }),
            frontend_link: `${sb.urls.origin}/portal/people/${p.id}`,
          })),
        },
      };
    },
  },
  ...pipelineRoutes({
    kind: 'business',
    pipelines: (sb) => sb.state.business_pipelines,
    stagesUrl: (sb, id) => sb.urls.businessPipelineStages(id),
    pipelinePage: BusinessPipelinePage,
    stagePage: BusinessStagePage,
  }),
];

