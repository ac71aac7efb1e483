import type { Application, BusinessSummary, Deal, DealApplication } from '@/lib/portal';
import { progressOf } from '../domain/answers';
import { versionEtag } from '../http/etag';
import type { Sandbox } from '../sandbox';
import type { ApplicationRec, BusinessRec, DealRec } from '../store/types';
import { applicationUrls } from './application-kinds';
import { dealMatch, dealProject } from '../funding/deal-link';

/** Resource views: records of the store turned into the spec's shapes, in one place. */
export function businessSummary(sb: Sandbox, b: BusinessRec): BusinessSummary {
  return { id: b.id, object: 'business', name: b.name, url: sb.urls.business(b.id) };
}

export function applicationRef(sb: Sandbox, appId: string) {
  return { id: appId, object: 'client_intake_application' as const, url: sb.urls.application(appId) };
}

function applicationStatus(app: ApplicationRec) {
  if (app.submitted_at) return { key: 'submitted', label: 'Submitted', updated_at: app.submitted_at };
  if (app.answers_updated_at) return { key: 'in_progress', label: 'In progress', updated_at: app.answers_updated_at };
  return { key: 'not_started', label: 'Not started', updated_at: null };
}

export function applicationView(sb: Sandbox, app: ApplicationRec): Application {
  const b = sb.business(app.business_id);
  return {
    id: app.id,
    object: 'client_intake_application',
    revision: app.revision,
    answers_revision: app.answers_revision,
    business: businessSummary(sb, b),
    status: applicationStatus(app),
    progress: progressOf(app, sb.index(app)),
    submitted_at: app.submitted_at,
    updated_at: app.updated_at,
    url: sb.urls.application(app.id),
    answers_url: sb.urls.answers(app.id),
    contract_url: sb.urls.contract(app.id),
    submit_url: sb.urls.submit(app.id),
    autofill_preparation_url: sb.urls.autofillPreparation(app.id),
    autofill_runs_url: sb.urls.autofillRuns(app.id),
  };
}

function dealApplicationRef(sb: Sandbox, appId: string) {
  return { id: appId, object: 'deal_application' as const, url: sb.urls.dealApplication(appId) };
}

/** 2.15 Deal application: status is the key of the intake status (not_started, in_progress, submitted). */
export function dealApplicationView(sb: Sandbox, app: ApplicationRec): DealApplication {
  const urls = applicationUrls(sb, app);
  return {
    id: app.id,
    object: 'deal_application',
    revision: app.revision,
    answers_revision: app.answers_revision,
    status: applicationStatus(app).key,
    submitted_at: app.submitted_at,
    created_at: app.created_at,
    updated_at: app.updated_at,
    url: urls.url,
    answers_url: urls.answers,
    contract_url: urls.contract,
    submit_url: urls.submit,
  };
}

/** A deal's pipeline and stage; a deal's status is its stage's outcome (won, lost) or open. */
export function dealWorkflow(sb: Sandbox, d: DealRec) {
  const pipeline = sb.state.deal_pipelines.find((p) => p.id === d.pipeline_id);
  const stage = pipeline?.stages.find((s) => s.id === d.stage_id);
  if (!pipeline || !stage) throw new Error(`deal ${d.id} is at an unknown stage`);
  return { pipeline, stage, status: stage.outcome ?? 'open' };
}

/**
 * 2.14 Deal, with the application summary {id, object, url}, the project {id, object, name} and the recipient
 * {id, object, name}, or null; `match` names the funding match the deal was made from (DESIGN.md §6), or null.
 */
export function dealView(sb: Sandbox, d: DealRec): Deal {
  const { pipeline, stage, status } = dealWorkflow(sb, d);
  const recipient = d.recipient_id ? sb.state.recipients.find((r) => r.id === d.recipient_id) : undefined;
  return {
    id: d.id,
    object: 'deal',
    revision: d.revision,
    application: dealApplicationRef(sb, d.application_id),
    project: dealProject(sb, d),
    recipient: recipient ? { id: recipient.id, object: 'recipient', name: recipient.name } : null,
    match: dealMatch(sb, d),
    name: d.name,
    status,
    workflow: {
      pipeline: { id: pipeline.id, name: pipeline.name },
      stage: { id: stage.id, name: stage.name },
      stages_url: sb.urls.dealPipelineStages(pipeline.id),
    },
    created_at: d.created_at,
    updated_at: d.updated_at,
    url: sb.urls.deal(d.id),
    ...(d.is_sample ? { is_sample: true } : {}),
  };
}

export const dealEtag = (d: DealRec) => versionEtag('deal', d.id, d.revision);
export const applicationEtag = (app: ApplicationRec) => versionEtag('app', app.id, app.revision, app.answers_revision);
/** One ETag for the answer set: answers, repeatable items and files all move answers_revision. */
export const answersEtag = (app: ApplicationRec) => versionEtag('answers', app.id, app.answers_revision);

/** A reply about the answer set (answers, items), carrying its ETag. */
export const answersReply = (app: ApplicationRec, body: unknown, status = 200) => ({ status, headers: { ETag: answersEtag(app) }, body });
export const businessEtag = (b: BusinessRec) => versionEtag('business', b.id, b.revision);
