import { isAnswered } from '@/lib/contract';
import type { AnswerValue, Project, ProjectCriteria, ProjectStatus } from '@/lib/portal';
import { fileValues, lookupFor, specLimitIssues, topValue } from '../domain/answers';
import { contractIndex } from '../domain/contract-index';
import { versionEtag } from '../http/etag';
import { notFound } from '../http/errors';
import type { Sandbox } from '../sandbox';
import { newId, nextSeq } from '../store/ids';
import type { ApplicationRec, State } from '../store/types';
import { fundingState } from './state';
import type { CriteriaSnapshot, ProjectRec } from './types';

/*
 * Projects and their criteria (DESIGN.md §6). The criteria are an application record of kind `criteria`
 * (id pcrit_…), so the application machinery serves their contract, answers, items and files unchanged.
 * Functions that take the State (not the Sandbox) also build the seed.
 */

const indexOf = (state: State, app: ApplicationRec) => {
  const template = state.contracts[app.contract_version];
  if (!template) throw new Error(`contract ${app.contract_version} is missing from the sandbox state`);
  return contractIndex(template);
};

const copy = (v: AnswerValue): AnswerValue => (Array.isArray(v) ? ([...v] as AnswerValue) : v);

/**
 * Copies into the criteria every visible, answered intake answer whose schema_key and field_key a criteria
 * question shares (top level, not files), when the value is valid for the criteria's value_schema too.
 * Returns what was copied, by the criteria's answer key.
 */
function prefillFrom(state: State, criteria: ApplicationRec, intake: ApplicationRec): Record<string, AnswerValue> {
  const target = indexOf(state, criteria);
  const source = indexOf(state, intake);
  const files = fileValues(intake);
  const lookup = lookupFor(intake, source, files);
  const copied: Record<string, AnswerValue> = {};
  for (const info of target.topFields) {
    if (info.isFile) continue;
    const from = source.bySchemaField.get(info.itemKey);
    if (!from || from.group || from.isFile || !source.isVisible(from.question, lookup)) continue;
    const value = topValue(intake, from, files);
    if (!isAnswered(value) || (specLimitIssues(value) ?? info.validate(value)).length > 0) continue;
    criteria.answers[info.key] = copy(value);
    copied[info.key] = copy(value);
  }
  return copied;
}

export interface NewProject {
  business_id: string;
  name: string;
  /** Fixed ids for the seed; new ones otherwise. */
  id?: string;
  criteria_id?: string;
}

/** Creates a project in draft with its criteria, prefilled from the business's intake application. */
export function newProject(state: State, input: NewProject, now: string): ProjectRec {
  const st = state.funding!;
  const business = state.businesses[input.business_id]!;
  const project: ProjectRec = {
    id: input.id ?? newId(state, 'project'),
    seq: nextSeq(state),
    business_id: business.id,
    name: input.name,
    criteria_id: input.criteria_id ?? newId(state, 'projectCriteria'),
    status: 'draft',
    revision: 0,
    latest_run_id: null,
    latest_completed_run_id: null,
    prefill: null,
    created_at: now,
    updated_at: now,
  };
  const criteria: ApplicationRec = {
    id: project.criteria_id,
    kind: 'criteria',
    business_id: business.id,
    project_id: project.id,
    contract_version: st.criteria_contract_version,
    revision: 0,
    answers_revision: 0,
    answers: {},
    items: {},
    files: {},
    submitted_at: null,
    created_at: now,
    updated_at: now,
    answers_updated_at: null,
  };
  const intake = state.applications[business.application_id];
  if (intake) {
    const values = prefillFrom(state, criteria, intake);
    if (Object.keys(values).length > 0) {
      project.prefill = { application_id: intake.id, answers_revision: intake.answers_revision, at: now, values };
      criteria.revision = 1;
      criteria.answers_revision = 1;
      criteria.answers_updated_at = now;
    }
  }
  st.projects[project.id] = project;
  state.applications[criteria.id] = criteria;
  return project;
}

/** The criteria as a run reads them: visible top-level answers by `schema|field`, the intake's files, the day. */
export function snapshotOf(state: State, criteria: ApplicationRec, now: string): CriteriaSnapshot {
  const index = indexOf(state, criteria);
  const files = fileValues(criteria);
  const lookup = lookupFor(criteria, index, files);
  const answers: Record<string, AnswerValue> = {};
  for (const info of index.topFields) {
    if (!index.isVisible(info.question, lookup)) continue;
    const value = topValue(criteria, info, files);
    if (isAnswered(value)) answers[info.itemKey] = copy(value);
  }
  const business = state.businesses[criteria.business_id];
  const intake = business ? state.applications[business.application_id] : undefined;
  const intakeFiles = [...new Set(Object.values(intake?.files ?? {}).map((f) => f.schema_key))].sort();
  return { answers, intake_files: intakeFiles, as_of: now.slice(0, 10) };
}

export function projectOf(sb: Sandbox, id: string): ProjectRec {
  const p = fundingState(sb).projects[id];
  if (!p) throw notFound('project');
  return p;
}

export function criteriaOf(sb: Sandbox, p: ProjectRec): ApplicationRec {
  const app = sb.state.applications[p.criteria_id];
  if (!app) throw new Error(`project ${p.id} has no criteria`);
  return app;
}

export const projectEtag = (p: ProjectRec) => versionEtag('project', p.id, p.revision);
export const criteriaEtag = (app: ApplicationRec) => versionEtag('criteria', app.id, app.revision, app.answers_revision);

export function projectView(sb: Sandbox, p: ProjectRec): Project {
  const b = sb.business(p.business_id);
  return {
    id: p.id,
    object: 'project',
    revision: p.revision,
    business: { id: b.id, object: 'business', name: b.name, url: sb.urls.business(b.id) },
    name: p.name,
    status: p.status,
    criteria_url: sb.urls.criteria(p.criteria_id),
    match_runs_url: sb.urls.projectMatchRuns(p.id),
    matches_url: sb.urls.projectMatches(p.id),
    created_at: p.created_at,
    updated_at: p.updated_at,
    url: sb.urls.project(p.id),
  };
}

/** The criteria resource; prefilled_from lists the copied answers that still hold the value copied. */
export function criteriaView(sb: Sandbox, app: ApplicationRec): ProjectCriteria {
  const p = fundingState(sb).projects[app.project_id!]!;
  const url = sb.urls.criteria(app.id);
  const prefill = p.prefill;
  return {
    object: 'project_criteria',
    id: app.id,
    revision: app.revision,
    answers_revision: app.answers_revision,
    updated_at: app.updated_at,
    url,
    answers_url: `${url}answers/`,
    contract_url: `${url}contract/`,
    prefilled_from: prefill && {
      application: { id: prefill.application_id, object: 'client_intake_application', url: sb.urls.application(prefill.application_id) },
      answers_revision: prefill.answers_revision,
      prefilled_at: prefill.at,
      answers: Object.entries(prefill.values)
        .filter(([key, value]) => JSON.stringify(app.answers[key] ?? null) === JSON.stringify(value))
        .map(([key]) => {
          const [block_key, schema_key, field_key] = key.split('|') as [string, string, string];
          return { block_key, schema_key, field_key };
        }),
    },
  };
}

/** A project's status moves its revision. */
export function setStatus(sb: Sandbox, p: ProjectRec, status: ProjectStatus) {
  if (p.status === status) return;
  p.status = status;
  p.revision += 1;
  p.updated_at = sb.now();
  sb.changed();
}

/**
 * Called by the answer machinery after every change to the criteria's answers (answers_revision has moved):
 * the criteria's revision moves with it, and project.criteria_updated is announced.
 */
export function criteriaChanged(sb: Sandbox, app: ApplicationRec) {
  app.revision += 1;
  const p = fundingState(sb).projects[app.project_id!];
  sb.events.publish('project.criteria_updated', {
    project_id: app.project_id ?? null,
    business_id: app.business_id,
    criteria_id: app.id,
    revision: app.revision,
    answers_revision: app.answers_revision,
    project_status: p?.status ?? null,
  });
}
