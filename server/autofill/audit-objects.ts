import 'server-only';
import type { AuditObject } from '@/server/http/route';

/** What each audited Autofill write touched, as the audit log names it. */

export const preparationObject = ({ params }: { params: { applicationId: string } }): AuditObject => ({
  type: 'autofill_preparation',
  id: params.applicationId,
  applicationId: params.applicationId,
});

export const evidenceObject = ({ params }: { params: { applicationId: string; evidenceId: string } }): AuditObject => ({
  type: 'autofill_evidence',
  id: params.evidenceId,
  applicationId: params.applicationId,
});

export const runObject = ({ params }: { params: { applicationId: string; runId: string } }): AuditObject => ({
  type: 'autofill_run',
  id: params.runId,
  applicationId: params.applicationId,
});

export const suggestionObject = ({ params }: { params: { applicationId: string; suggestionId: string } }): AuditObject => ({
  type: 'autofill_suggestion',
  id: params.suggestionId,
  applicationId: params.applicationId,
});
