import { ApplicationContract, ApplicationEnvelope, type ApplicationContract as Contract } from '@/lib/portal';
import { requirements } from '../domain/answers';
import type { RouteDef } from '../http/context';
import { checkIfMatch, versionEtag } from '../http/etag';
import { SandboxError } from '../http/errors';
import type { Sandbox } from '../sandbox';
import type { ApplicationRec } from '../store/types';
import { applicationEtag, applicationView } from './views';

export function contractView(sb: Sandbox, app: ApplicationRec): Contract {
  const t = sb.state.contracts[app.contract_version]!;
  return {
    object: 'application_contract',
    contract_version: t.contract_version,
    answers_revision: app.answers_revision,
    application_name: t.application_name,
    description: t.description,
    instructions: t.instructions,
    resource: { id: app.id, object: 'client_intake_application' },
    sections: t.sections,
    repeatable_groups: t.repeatable_groups,
    questions: t.questions,
    operations: {
      read_answers_url: sb.urls.answers(app.id),
      update_answers_url: sb.urls.answers(app.id),
      repeatable_items_url: sb.urls.repeatableItems(app.id),
      file_uploads_url: sb.urls.fileUploads(app.id),
      files_url: sb.urls.files(app.id),
      submit_url: sb.urls.submit(app.id),
    },
  };
}

/** Writes after submission are refused with one clear error. */
export function assertOpen(app: ApplicationRec) {
  if (app.submitted_at) {
    throw new SandboxError('conflict', `The application was submitted on ${app.submitted_at} and can no longer be changed.`, [
      { code: 'application_submitted', message: 'Submitted applications are read-only.' },
    ]);
  }
}

export const applicationRoutes: RouteDef[] = [
  {
    // GET client-intake-applications/{id}/ – the application with progress computed from its answers
    method: 'GET',
    path: 'client-intake-applications/:id/',
    access: ['applications:read'],
    summary: 'Read a client intake application',
    tag: 'applications',
    response: ApplicationEnvelope,
    handle: ({ sb, params }) => {
      const app = sb.application(params.id!);
      return { status: 200, body: { application: applicationView(sb, app) }, headers: { ETag: applicationEtag(app) } };
    },
  },
  {
    // GET client-intake-applications/{id}/contract/ – the questions of the application
    method: 'GET',
    path: 'client-intake-applications/:id/contract/',
    access: ['applications:read'],
    summary: 'Read the application contract',
    tag: 'applications',
    response: ApplicationContract,
    handle: ({ sb, params }) => {
      const app = sb.application(params.id!);
      return {
        status: 200,
        body: contractView(sb, app),
        headers: { ETag: versionEtag('contract', app.id, app.contract_version, app.answers_revision) },
      };
    },
  },
  {
    // POST client-intake-applications/{id}/submit/ – submit once every visible required answer is given
    method: 'POST',
    path: 'client-intake-applications/:id/submit/',
    ifMatch: 'required',
    access: ['applications:write'],
    idempotency: 'required',
    summary: 'Submit the application',
    tag: 'applications',
    response: ApplicationEnvelope,
    handle: (ctx) => {
      const { sb, params } = ctx;
      const app = sb.application(params.id!);
      assertOpen(app);
      checkIfMatch(ctx.header('if-match'), applicationEtag(app), true);
      const missing = requirements(app, sb.index(app)).filter((r) => !r.done);
      if (missing.length > 0) {
        throw new SandboxError(
          'validation_failed',
          `${missing.length} required answer${missing.length === 1 ? ' is' : 's are'} missing.`,
          missing.map((r) => r.detail),
        );
      }
      const now = sb.now();
      app.submitted_at = now;
      app.revision += 1;
      app.updated_at = now;
      sb.changed();
      return { status: 200, body: { application: applicationView(sb, app) }, headers: { ETag: applicationEtag(app) } };
    },
  },
];
