import { ApplicationContract, ApplicationEnvelope, DealApplication, type ApplicationContract as Contract } from '@/lib/portal';
import { requirements } from '../domain/answers';
import type { Reply, RouteDef } from '../http/context';
import { contractEtag } from '../http/etag';
import { SandboxError } from '../http/errors';
import type { Sandbox } from '../sandbox';
import type { ApplicationRec } from '../store/types';
import { CLIENT_INTAKE, applicationUrls, specOf, type ApplicationKindSpec } from './application-kinds';
import { belowApplication } from './application-routes';
import { applicationEtag, applicationView, dealApplicationView } from './views';

export function contractView(sb: Sandbox, app: ApplicationRec): Contract {
  const t = sb.state.contracts[app.contract_version]!;
  const urls = applicationUrls(sb, app);
  return {
    object: 'application_contract',
    contract_version: t.contract_version,
    answers_revision: app.answers_revision,
    application_name: t.application_name,
    description: t.description,
    instructions: t.instructions,
    resource: { id: app.id, object: specOf(app).object },
    sections: t.sections,
    repeatable_groups: t.repeatable_groups,
    questions: t.questions,
    operations: {
      read_answers_url: urls.answers,
      update_answers_url: urls.answers,
      repeatable_items_url: urls.repeatableItems,
      file_uploads_url: urls.fileUploads,
      files_url: urls.files,
      submit_url: urls.submit,
    },
  };
}

/** The read (and submit) reply: a client intake application is wrapped as {application}, a deal application is not (spec 2.8, 2.15). */
function applicationReply(sb: Sandbox, app: ApplicationRec): Reply {
  const body = specOf(app).kind === 'deal' ? dealApplicationView(sb, app) : { application: applicationView(sb, app) };
  return { status: 200, body, headers: { ETag: applicationEtag(app) } };
}

/** Announces a submission: application.submitted for client intake, deal_application.submitted for deals. */
function publishSubmitted(sb: Sandbox, app: ApplicationRec) {
  const spec = specOf(app);
  const data = { application_id: app.id, object: spec.object, business_id: app.business_id, submitted_at: app.submitted_at };
  if (spec.kind === 'deal') sb.events.publish('deal_application.submitted', { ...data, deal_id: app.deal_id ?? null });
  else sb.events.publish('application.submitted', data);
}

/** Read, contract and submit of one kind of application. */
export function applicationRoutesFor(spec: ApplicationKindSpec): RouteDef[] {
  const deal = spec.kind === 'deal';
  return belowApplication(spec, deal ? 'deal applications' : 'applications', [
    {
      // GET {segment}/{id}/ – the application (client intake: with progress computed from its answers)
      method: 'GET',
      path: '',
      summary: deal ? 'Read a deal application' : 'Read a client intake application',
      response: deal ? DealApplication : ApplicationEnvelope,
      handle: ({ sb }, app) => applicationReply(sb, app),
    },
    {
      // GET {segment}/{id}/contract/ – the questions of the application
      method: 'GET',
      path: 'contract/',
      summary: deal ? 'Read the deal application contract' : 'Read the application contract',
      response: ApplicationContract,
      handle: ({ sb }, app) => ({
        status: 200,
        body: contractView(sb, app),
        headers: { ETag: contractEtag(app) },
      }),
    },
    {
      // POST {segment}/{id}/submit/ – submit once every visible required answer is given; returns the application as read
      method: 'POST',
      path: 'submit/',
      open: true,
      ifMatch: 'required',
      idempotency: 'required',
      summary: deal ? 'Submit the deal application' : 'Submit the application',
      response: deal ? DealApplication : ApplicationEnvelope,
      handle: (ctx, app) => {
        const { sb } = ctx;
        ctx.ifMatch(applicationEtag(app));
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
        publishSubmitted(sb, app);
        return applicationReply(sb, app);
      },
    },
  ]);
}

export const applicationRoutes: RouteDef[] = applicationRoutesFor(CLIENT_INTAKE);
