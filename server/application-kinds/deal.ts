import 'server-only';
import { DealAnswersMutationResult, DealApplication } from '@/lib/portal';
import { dealApplicationView } from '@/server/deal-applications/views';
import { DealApplicationParams } from '@/server/http/path-params';
import { routes } from '@/server/portal';
import { defineApplicationKind } from './kind';
import { contractLinks, type ApplicationLinks } from './links';

/** A deal application's links: the contract's and its submit. */
interface DealApplicationLinks extends ApplicationLinks {
  submit: string;
}

/** A deal's lender application (`/api/deal-applications/[dealApplicationId]`): staff only. */
export const dealApplication = defineApplicationKind({
  idParam: 'dealApplicationId',
  params: DealApplicationParams,
  roles: { read: ['staff'], write: ['staff'] },
  upstream: { path: routes.dealApplication, schema: DealApplication, unwrap: (app) => app },
  answersResult: DealAnswersMutationResult,
  view: dealApplicationView,
  contractUrl: (app) => app.contract_url,
  linksOf: (app, contract): DealApplicationLinks => ({ ...contractLinks(app, contract), submit: app.submit_url }),
  audit: {
    application: { type: 'deal_application', answersUpdate: 'deal_application.answers_update', submit: 'deal_application.submit' },
    items: { create: 'deal_application.item_create', update: 'deal_application.item_update', delete: 'deal_application.item_delete' },
    files: { upload: 'deal_application.file_upload', delete: 'deal_application.file_delete' },
  },
});
