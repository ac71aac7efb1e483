import 'server-only';
import { AnswersMutationResult, ApplicationEnvelope } from '@/lib/portal';
import { applicationView } from './application-views';
import { ApplicationParams } from '@/server/http/path-params';
import { routes } from '@/server/portal';
import { defineApplicationKind } from './kind';
import { contractLinks, type ApplicationLinks } from './kind-links';

/** An intake application's links: the contract's, its submit and its Autofill. */
export interface IntakeLinks extends ApplicationLinks {
  submit: string;
  autofillPreparation: string;
  autofillRuns: string;
}

/**
 * The client intake application (`/api/applications/[applicationId]`): staff, reviewers and its invited
 * client read it; staff and the client write.
 */
export const intakeApplication = defineApplicationKind({
  idParam: 'applicationId',
  params: ApplicationParams,
  roles: { read: ['staff', 'reviewer', 'client'], write: ['staff', 'client'] },
  upstream: { path: routes.application, schema: ApplicationEnvelope, unwrap: (reply) => reply.application },
  answersResult: AnswersMutationResult,
  view: applicationView,
  contractUrl: (app) => app.contract_url,
  linksOf: (app, contract): IntakeLinks => ({
    ...contractLinks(app, contract),
    submit: app.submit_url,
    autofillPreparation: app.autofill_preparation_url,
    autofillRuns: app.autofill_runs_url,
  }),
  audit: {
    application: { type: 'application', answersUpdate: 'answers.update', submit: 'application.submit' },
    items: { create: 'items.create', update: 'items.update', delete: 'items.delete' },
    files: { upload: 'files.upload', delete: 'files.delete' },
  },
  reviewed: true,
});

/** An intake application's links (Autofill reaches its preparation and runs through them). */
export const applicationLinks = (applicationId: string) => intakeApplication.links.get(applicationId);
