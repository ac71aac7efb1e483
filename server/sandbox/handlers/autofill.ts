import {
  AutofillPreparation,
  AutofillRun,
  AutofillStartBody,
  EvidenceUploadRequestBody,
  FileUploadCredential,
  PreparationUpdateBody,
  type ErrorDetail,
  type Permission,
} from '@/lib/portal';
import { issueEvidenceUpload, removeEvidence } from '../autofill/evidence';
import { evidenceSources, preparationEtag, preparationOf, preparationReply, startBlocker, touchPreparation, usableSourceIds } from '../autofill/preparation';
import { runReply, startRun } from '../autofill/runs';
import type { RouteDef } from '../http/context';
import { SandboxError } from '../http/errors';
import { CLIENT_INTAKE } from './application-kinds';
import { belowApplication } from './application-routes';

/*
 * Autofill preparation (spec 2.11, DESIGN.md §5): read and update it, add and remove evidence files, start a
 * run. Reads need applications:read; every change needs autofill:write.
 */

const PREP = 'autofill-preparation/';
const AUTOFILL_WRITE: Permission[] = ['autofill:write'];

export const autofillPreparationRoutes: RouteDef[] = belowApplication(CLIENT_INTAKE, 'autofill', [
  {
    // GET client-intake-applications/{id}/autofill-preparation/ – text input, AI mode, evidence and can_start
    method: 'GET',
    path: PREP,
    summary: 'Read the Autofill preparation (created on first use with revision 1)',
    response: AutofillPreparation,
    handle: ({ sb }, app) => preparationReply(sb, preparationOf(sb, app.id)),
  },
  {
    // PATCH client-intake-applications/{id}/autofill-preparation/ – ai_mode and/or text_input, with If-Match
    method: 'PATCH',
    path: PREP,
    ifMatch: 'required',
    access: AUTOFILL_WRITE,
    open: true,
    summary: 'Update the Autofill preparation: ai_mode and/or text_input (an empty text_input clears it); every change moves revision',
    requestBody: PreparationUpdateBody,
    response: AutofillPreparation,
    handle: async (ctx, app) => {
      const { sb } = ctx;
      const a = preparationOf(sb, app.id);
      const p = a.preparation;
      ctx.ifMatch(preparationEtag(p));
      const body = await ctx.body(PreparationUpdateBody);
      if (body.ai_mode !== undefined) p.ai_mode = body.ai_mode;
      if (body.text_input !== undefined) {
        const text = body.text_input === '' ? null : body.text_input;
        if (text !== p.text_input) {
          p.text_input = text;
          p.text_updated_at = sb.now();
        }
      }
      touchPreparation(sb, a);
      return preparationReply(sb, a);
    },
  },
  {
    // POST client-intake-applications/{id}/autofill-preparation/files/ – a credential to upload one evidence file
    method: 'POST',
    path: `${PREP}files/`,
    access: AUTOFILL_WRITE,
    open: true,
    idempotency: 'optional',
    summary:
      'Request an evidence upload credential: PUT the bytes to upload_url (no API key; Content-Type and Content-Disposition filename); the reply is the preparation with uploaded_file. One credential carries one file; a repeated PUT replaces it.',
    requestBody: EvidenceUploadRequestBody,
    response: FileUploadCredential,
    successStatus: 201,
    handle: async (ctx, app) => {
      const { sb } = ctx;
      await ctx.body(EvidenceUploadRequestBody);
      preparationOf(sb, app.id);
      return { status: 201, body: issueEvidenceUpload(sb, app) };
    },
  },
  {
    // DELETE client-intake-applications/{id}/autofill-preparation/files/{evidence_source_id}/ – remove an evidence file
    method: 'DELETE',
    path: `${PREP}files/:source/`,
    ifMatch: 'required',
    access: AUTOFILL_WRITE,
    open: true,
    summary: 'Remove an evidence file from the preparation (If-Match: the preparation ETag)',
    response: AutofillPreparation,
    handle: (ctx, app) => {
      const { sb, params } = ctx;
      const a = preparationOf(sb, app.id);
      ctx.ifMatch(preparationEtag(a.preparation));
      removeEvidence(sb, app.id, params.source!);
      return preparationReply(sb, a);
    },
  },
  {
    // POST client-intake-applications/{id}/autofill-preparation/start/ – start a run (Idempotency-Key)
    method: 'POST',
    path: `${PREP}start/`,
    access: AUTOFILL_WRITE,
    open: true,
    idempotency: 'required',
    summary: 'Start an Autofill run from the current preparation revision (412 when stale, 409 when can_start is false)',
    requestBody: AutofillStartBody,
    response: AutofillRun,
    successStatus: 201,
    handle: async (ctx, app) => {
      const { sb } = ctx;
      const body = await ctx.body(AutofillStartBody);
      const a = preparationOf(sb, app.id);
      const p = a.preparation;
      if (body.expected_preparation_revision !== p.revision) {
        throw new SandboxError('precondition_failed', 'The preparation changed since you read it: re-read it and start with its current revision.', [
          { code: 'stale_revision', message: `Revision ${body.expected_preparation_revision} is not the current revision (${p.revision}).`, parameter: 'expected_preparation_revision' },
        ]);
      }
      const blocker = startBlocker(a);
      if (blocker) throw new SandboxError('conflict', `Autofill cannot start now: ${blocker.message}`, [blocker]);
      const usable = usableSourceIds(p);
      let sourceIds = usable;
      if (body.selected_evidence_source_ids !== undefined) {
        const wanted = new Set(body.selected_evidence_source_ids);
        const known = new Map(evidenceSources(p).map((s) => [s.id, s]));
        const details: ErrorDetail[] = [];
        body.selected_evidence_source_ids.forEach((id, i) => {
          const s = known.get(id);
          const parameter = `selected_evidence_source_ids.${i}`;
          if (!s) details.push({ code: 'unknown_evidence_source', message: `${id} is not an evidence source of this preparation.`, parameter });
          else if (!usable.includes(id)) details.push({ code: 'evidence_not_usable', message: `${s.name ?? id} could not be read (${s.failure_reason ?? s.status}).`, parameter });
        });
        if (wanted.size === 0) details.push({ code: 'no_evidence_selected', message: 'Select at least one evidence source, or leave the list out to use all of them.', parameter: 'selected_evidence_source_ids' });
        if (details.length > 0) throw new SandboxError('validation_failed', 'The evidence selection is not valid.', details);
        sourceIds = usable.filter((id) => wanted.has(id));
      }
      return runReply(sb, startRun(sb, app, a, body.ai_mode ?? p.ai_mode, sourceIds), 201);
    },
  },
]);
