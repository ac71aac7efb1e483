import 'server-only';
import type { ApplicationView } from '@/lib/bff/applications';
import type { DealApplicationSummary } from '@/lib/bff/deals';
import { DealAnswersMutationResult, DealApplication } from '@/lib/portal';
import { DealApplicationParams } from '@/server/http/path-params';
import { routes } from '@/server/portal';
import { defineApplicationKind } from './kind';
import { contractLinks, type ApplicationLinks } from './kind-links';
import { readFormSnapshot } from './form-snapshot';
import { snapshotProgress } from './snapshot-progress';

/** "in_progress" → "In progress": the Portal gives a deal application's status as a bare key. */
const labelOf = (key: string) => {
  const words = key.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/**
 * A deal application in the shape of an intake application's view (kind 'deal'), so one form serves both.
 * A deal application names neither its business nor a progress, so those are null.
 */
export function dealApplicationView(app: DealApplication, etag: string): ApplicationView {
  return {
    id: app.id,
    kind: 'deal',
    business: null,
    status: app.status ? { key: app.status, label: labelOf(app.status), updated_at: app.submitted_at } : null,
    progress: null,
    submitted_at: app.submitted_at,
    updated_at: app.updated_at,
    revision: app.revision,
    answers_revision: app.answers_revision,
    etag,
  };
}

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

/** The deal application as a deal page summarises it: its status and how much of it is answered. */
export async function readDealApplicationSummary(dealApplicationId: string): Promise<DealApplicationSummary> {
  const snapshot = await readFormSnapshot(dealApplication, dealApplicationId);
  const { answered, total, percent } = snapshotProgress(snapshot);
  return { application: snapshot.application, title: snapshot.contract.application_name, progress: { answered, total, percent } };
}
