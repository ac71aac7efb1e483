import { UploadQuery } from '@/lib/bff/businesses';
import { BusinessFileUploadResult } from '@/lib/portal';
import { checkUploadRequest, documentRules, streamUpload } from '@/server/applications/upload-request';
import { UploadParams } from '@/server/http/path-params';
import { findUploadSlot, forgetUploadSlot } from '@/server/businesses/upload-slots';
import { AppError } from '@/server/http/app-error';
import { route } from '@/server/http/route';
import { isPortalError } from '@/server/portal';

const GONE = 'This document slot does not exist or has expired. Attach the document to its question in the application instead.';

// POST /api/businesses/[businessId]/uploads/[uploadId]?filename=… – stream one document (the request body, typed by Content-Type) into a slot of a new business
export const POST = route(
  {
    roles: ['staff'],
    params: UploadParams,
    query: UploadQuery,
    body: 'stream',
    audit: {
      operation: 'business.document_upload',
      // The application is learnt from the slot (in the handler, as the slot is read from the database).
      object: ({ params }) => ({ type: 'business', id: params.businessId, applicationId: null }),
    },
  },
  async ({ params, query, req, db, upstream, auditObject }) => {
    const slot = await findUploadSlot(db, params.businessId, params.uploadId);
    if (!slot) throw new AppError('not_found', GONE);
    auditObject({ applicationId: slot.applicationId });
    // The same checks as an answer file's: what one upload route refuses, no other forwards.
    const upload = checkUploadRequest(req, documentRules, query.filename);
    try {
      const res = await streamUpload(slot.uploadUrl, upload, documentRules, BusinessFileUploadResult, req.signal);
      upstream.requestId = res.requestId;
      return { status: 201, body: { upload: res.data } };
    } catch (e) {
      // The Portal refuses a signed URL that expired or was withdrawn: the slot is of no more use.
      if (isPortalError(e) && e.fromUpstream && e.status === 403) {
        await forgetUploadSlot(db, params.businessId, params.uploadId);
        upstream.requestId = e.requestId;
        throw new AppError('not_found', GONE);
      }
      throw e;
    }
  },
);
