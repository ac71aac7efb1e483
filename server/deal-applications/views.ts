import 'server-only';
import type { ApplicationView } from '@/lib/bff/applications';
import type { DealApplication } from '@/lib/portal';

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
