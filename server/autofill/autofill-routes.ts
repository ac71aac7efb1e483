import 'server-only';
import { acceptSuggestionRoute, dismissSuggestionRoute } from '@/server/autofill/suggestion-routes';
import { PreparationUpdate, SuggestionsQuery, type SuggestionsPageView, RunsQuery, type RunsPageView, StartRequest, type RunReply } from '@/lib/bff/autofill';
import { intakeApplication } from '@/server/applications/intake-application';
import { kindRoute } from '@/server/applications/kind-route';
import { evidenceObject, preparationObject, runObject } from '@/server/autofill/audit-objects';
import { evidenceSourceView, preparationView, runView, suggestionView } from '@/server/autofill/autofill-views';
import { checkEvidenceUpload, uploadEvidence } from '@/server/autofill/evidence-upload';
import { deleteEvidence, readPreparation, updatePreparation, startUrlOf } from '@/server/autofill/preparation';
import { preparationReply, withCurrentPreparation } from '@/server/autofill/preparation-reply';
import { retryRun, readRun, listSuggestions, listRuns, startRun } from '@/server/autofill/runs';
import { readUnusedText } from '@/server/autofill/unused-text';
import { requireIfMatch, etagHeader, requireIdempotencyKey } from '@/server/http/headers';
import { EvidenceParams, ApplicationParams, RunParams } from '@/server/http/path-params';
import type { EvidenceUploadReply } from '@/lib/bff/autofill';
import { api } from '@/lib/api/endpoints';

// DELETE /api/applications/[applicationId]/autofill/preparation/files/[evidenceId] – remove an evidence file
// (If-Match: the preparation's ETag); a 412 comes back with the current preparation
const application_autofill_evidenceFile_DELETE = kindRoute(
  intakeApplication,
  api.application.autofill.evidenceFile.DELETE,
  { roles: ['staff', 'client'], params: EvidenceParams, audit: { operation: 'autofill.evidence_delete', object: evidenceObject } },
  async ({ id, links, params, req }) => {
    const ifMatch = requireIfMatch(req);
    const intake = await links();
    return withCurrentPreparation({ applicationId: id, links: intake }, async () => {
      const res = await deleteEvidence(id, intake, params.evidenceId, ifMatch);
      return preparationReply(res);
    });
  },
);

// POST /api/applications/[applicationId]/autofill/preparation/files – add one evidence file (the body is its
// bytes, with Content-Type and the name in X-Filename), streamed on to the Portal; replies with the preparation
const application_autofill_evidence_POST = kindRoute(
  intakeApplication,
  api.application.autofill.evidence.POST,
  {
    roles: ['staff', 'client'],
    params: ApplicationParams,
    body: 'stream',
    audit: { operation: 'autofill.evidence_upload', object: preparationObject },
  },
  async ({ id, links, req }) => {
    const upload = checkEvidenceUpload(req);
    const res = await uploadEvidence(id, await links(), upload);
    const body: EvidenceUploadReply = {
      preparation: preparationView(res.preparation),
      etag: res.etag,
      uploaded_file: res.uploadedFile ? evidenceSourceView(res.uploadedFile) : null,
    };
    return { status: 201, body, headers: etagHeader(res.etag) };
  },
);

// GET /api/applications/[applicationId]/autofill/preparation – text input, AI mode, evidence and whether a run can start
const application_autofill_preparation_GET = kindRoute(
  intakeApplication,
  api.application.autofill.preparation.GET,
  { roles: ['staff', 'reviewer', 'client'], params: ApplicationParams },
  async ({ id, links }) => {
    const res = await readPreparation(id, await links());
    return preparationReply(res);
  },
);

// PATCH /api/applications/[applicationId]/autofill/preparation – ai_mode and/or text_input (If-Match); a 412
// comes back with the current preparation
const application_autofill_preparation_PATCH = kindRoute(
  intakeApplication,
  api.application.autofill.preparation.PATCH,
  {
    roles: ['staff', 'client'],
    params: ApplicationParams,
    body: PreparationUpdate,
    audit: { operation: 'autofill.preparation_update', object: preparationObject },
  },
  async ({ id, links, body, req }) => {
    const ifMatch = requireIfMatch(req);
    const intake = await links();
    return withCurrentPreparation({ applicationId: id, links: intake }, async () => {
      const res = await updatePreparation(id, intake, body, ifMatch);
      return preparationReply(res);
    });
  },
);

// POST /api/applications/[applicationId]/autofill/runs/[runId]/retry – a new attempt of a failed run
// (Idempotency-Key); 409 when it cannot be retried
const application_autofill_runRetry_POST = kindRoute(
  intakeApplication,
  api.application.autofill.runRetry.POST,
  { roles: ['staff', 'client'], params: RunParams, audit: { operation: 'autofill.retry', object: runObject } },
  async ({ id, links, params, req }) => {
    const idempotencyKey = requireIdempotencyKey(req);
    const res = await retryRun(id, await links(), params.runId, idempotencyKey);
    const body: RunReply = { run: runView(res.data) };
    return { body };
  },
);

// GET /api/applications/[applicationId]/autofill/runs/[runId] – one run with its progress (what the UI polls)
const application_autofill_run_GET = kindRoute(
  intakeApplication,
  api.application.autofill.run.GET,
  { roles: ['staff', 'reviewer', 'client'], params: RunParams },
  async ({ id, links, params }) => {
    const res = await readRun(id, await links(), params.runId);
    const body: RunReply = { run: runView(res.data) };
    return { body, headers: etagHeader(res.etag) };
  },
);

// GET /api/applications/[applicationId]/autofill/runs/[runId]/unused-text – the lines of the Autofill text the
// run could not use; the client who wrote the text sees them too (no suggested value is in the reply)
const application_autofill_runUnusedText_GET = kindRoute(
  intakeApplication,
  api.application.autofill.runUnusedText.GET,
  { roles: ['staff', 'reviewer', 'client'], params: RunParams },
  async ({ id, links, params }) => ({ body: await readUnusedText(id, await links(), params.runId) }),
);

// GET /api/applications/[applicationId]/autofill/runs/[runId]/suggestions – a page of the run's suggestions in
// contract order (page_size, cursor, status)
const application_autofill_runSuggestions_GET = kindRoute(
  intakeApplication,
  api.application.autofill.runSuggestions.GET,
  { roles: ['staff', 'reviewer'], params: RunParams, query: SuggestionsQuery },
  async ({ id, links, params, query }) => {
    const res = await listSuggestions(id, await links(), params.runId, query);
    const body: SuggestionsPageView = {
      items: res.data.items.map(suggestionView),
      next_cursor: res.data.next_cursor,
      previous_cursor: res.data.previous_cursor,
    };
    return { body };
  },
);

// GET /api/applications/[applicationId]/autofill/runs – a page of the application's runs, newest first (page_size, cursor)
const application_autofill_runs_GET = kindRoute(
  intakeApplication,
  api.application.autofill.runs.GET,
  { roles: ['staff', 'reviewer', 'client'], params: ApplicationParams, query: RunsQuery },
  async ({ id, links, query }) => {
    const res = await listRuns(id, await links(), query);
    const body: RunsPageView = { items: res.data.items.map(runView), next_cursor: res.data.next_cursor, previous_cursor: res.data.previous_cursor };
    return { body };
  },
);

// POST /api/applications/[applicationId]/autofill/start – start a run from the preparation revision the user saw
// (Idempotency-Key); a stale revision gives 412 with the current preparation, a start that cannot happen now 409
const application_autofill_start_POST = kindRoute(
  intakeApplication,
  api.application.autofill.start.POST,
  { roles: ['staff', 'client'], params: ApplicationParams, body: StartRequest, audit: { operation: 'autofill.start', object: preparationObject } },
  async ({ id, links, body, req }) => {
    const idempotencyKey = requireIdempotencyKey(req);
    const intake = await links();
    const startUrl = await startUrlOf(id, intake);
    return withCurrentPreparation({ applicationId: id, links: intake }, async () => {
      const res = await startRun(id, startUrl, body, idempotencyKey);
      const reply: RunReply = { run: runView(res.data) };
      return { status: 201, body: reply };
    });
  },
);

/** The route handlers of autofill: each route file under app/api re-exports its methods. */
export const autofillRoutes = {
  evidenceFile: { DELETE: application_autofill_evidenceFile_DELETE },
  evidence: { POST: application_autofill_evidence_POST },
  preparation: { GET: application_autofill_preparation_GET, PATCH: application_autofill_preparation_PATCH },
  runRetry: { POST: application_autofill_runRetry_POST },
  run: { GET: application_autofill_run_GET },
  runSuggestions: { GET: application_autofill_runSuggestions_GET },
  runUnusedText: { GET: application_autofill_runUnusedText_GET },
  runs: { GET: application_autofill_runs_GET },
  start: { POST: application_autofill_start_POST },
  suggestionAccept: acceptSuggestionRoute,
  suggestionDismiss: dismissSuggestionRoute,
};
