import type { Application, BusinessSummary } from '@/lib/portal';
import { progressOf } from '../domain/answers';
import { versionEtag } from '../http/etag';
import type { Sandbox } from '../sandbox';
import type { ApplicationRec, BusinessRec } from '../store/types';

/** Resource views: records of the store turned into the spec's shapes, in one place. */
export function businessSummary(sb: Sandbox, b: BusinessRec): BusinessSummary {
  return { id: b.id, object: 'business', name: b.name, url: sb.urls.business(b.id) };
}

export function applicationRef(sb: Sandbox, appId: string) {
  return { id: appId, object: 'client_intake_application' as const, url: sb.urls.application(appId) };
}

export function applicationStatus(app: ApplicationRec) {
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

export const applicationEtag = (app: ApplicationRec) => versionEtag('app', app.id, app.revision, app.answers_revision);
/** One ETag for the answer set: answers, repeatable items and files all move answers_revision. */
export const answersEtag = (app: ApplicationRec) => versionEtag('answers', app.id, app.answers_revision);
export const businessEtag = (b: BusinessRec) => versionEtag('business', b.id, b.revision);
