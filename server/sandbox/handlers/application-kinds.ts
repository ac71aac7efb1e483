import type { Permission } from '@/lib/portal';
import { SandboxError, notFound } from '../http/errors';
import type { Sandbox } from '../sandbox';
import { kindOf, type ApplicationKind, type ApplicationRec } from '../store/types';

/**
 * What differs between the kinds of application that share the application machinery (contract, answers,
 * repeatable items, files, submit): where they live, what they are called, and who may use them.
 */
export interface ApplicationKindSpec {
  kind: ApplicationKind;
  /** The path segment below /v1/ (`{segment}/{id}/…`). */
  segment: 'client-intake-applications' | 'deal-applications' | 'project-criteria';
  object: 'client_intake_application' | 'deal_application' | 'project_criteria';
  /** `object` of an answer mutation result (spec 2.10). */
  answersObject: 'client_intake_application_answers' | 'deal_application_answers' | 'project_criteria_answers';
  /** How messages and OpenAPI summaries name it. */
  noun: string;
  /** Sufficient permissions for reads and for writes. */
  read: Permission[];
  write: Permission[];
}

export const CLIENT_INTAKE: ApplicationKindSpec = {
  kind: 'client_intake',
  segment: 'client-intake-applications',
  object: 'client_intake_application',
  answersObject: 'client_intake_application_answers',
  noun: 'application',
  read: ['applications:read'],
  write: ['applications:write'],
};

/**
 * A deal application belongs to its deal, so the deal permissions govern it: deals:read for reads,
 * deals:write for writes (applications:* does not reach deal applications).
 */
export const DEAL_APPLICATION: ApplicationKindSpec = {
  kind: 'deal',
  segment: 'deal-applications',
  object: 'deal_application',
  answersObject: 'deal_application_answers',
  noun: 'deal application',
  read: ['deals:read'],
  write: ['deals:write'],
};

/**
 * A project's criteria (DESIGN.md §6) are the third kind: contract, answers, items and files as an intake
 * application's, no submit of their own (starting a match run takes them), and the project permissions.
 */
export const PROJECT_CRITERIA: ApplicationKindSpec = {
  kind: 'criteria',
  segment: 'project-criteria',
  object: 'project_criteria',
  answersObject: 'project_criteria_answers',
  noun: 'project criteria',
  read: ['projects:read'],
  write: ['projects:write'],
};

const SPECS: Record<ApplicationKind, ApplicationKindSpec> = { client_intake: CLIENT_INTAKE, deal: DEAL_APPLICATION, criteria: PROJECT_CRITERIA };
export const specOf = (app: ApplicationRec) => SPECS[kindOf(app)];

/** The application of this kind, or 404: a deal application is not found at an intake path and the other way round. */
export function applicationOf(sb: Sandbox, spec: ApplicationKindSpec, id: string): ApplicationRec {
  const app = sb.state.applications[id];
  if (!app || kindOf(app) !== spec.kind) throw notFound(spec.noun);
  return app;
}

/** Writes after submission are refused with one clear error. */
export function assertOpen(app: ApplicationRec) {
  if (app.submitted_at) {
    const noun = specOf(app).noun;
    throw new SandboxError('conflict', `The ${noun} was submitted on ${app.submitted_at} and can no longer be changed.`, [
      { code: 'application_submitted', message: `Submitted ${noun}s are read-only.` },
    ]);
  }
}

/**
 * The URLs of an application and of the operations below it, for any kind. The criteria's submit is
 * their project's match_runs_url: starting a match run is what takes them.
 */
export function applicationUrls(sb: Sandbox, app: ApplicationRec) {
  const kind = kindOf(app);
  const url = kind === 'deal' ? sb.urls.dealApplication(app.id) : kind === 'criteria' ? sb.urls.criteria(app.id) : sb.urls.application(app.id);
  return {
    url,
    contract: `${url}contract/`,
    answers: `${url}answers/`,
    repeatableItems: `${url}repeatable-items/`,
    fileUploads: `${url}file-uploads/`,
    files: `${url}files/`,
    submit: kind === 'criteria' ? sb.urls.projectMatchRuns(app.project_id!) : `${url}submit/`,
  };
}
