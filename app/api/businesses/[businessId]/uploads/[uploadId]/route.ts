import { UploadQuery } from '@/lib/bff/businesses';
import { BusinessFileUploadResult } from '@/lib/portal';
import { UploadParams } from '@/server/http/path-params';
import { findUploadSlot, forgetUploadSlot } from '@/server/businesses/upload-slots';
import { AppError } from '@/server/http/app-error';
import { route } from '@/server/http/route';
import { isPortalError, portalTransfer } from '@/server/portal';

const GONE = 'This document slot does not exist or has expired. Attach the document to its question in the application instead.';

function declaredSize(req: Request): number | undefined {
  const v = req.headers.get('content-length');
  return v !== null && /^\d{1,15}$/.test(v) ? Number(v) : undefined;
}

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
  async ({ params, query, req, db, auditObject }) => {
    const slot = await findUploadSlot(db, params.businessId, params.uploadId);
    if (!slot) throw new AppError('not_found', GONE);
    auditObject({ applicationId: slot.applicationId });
    const contentType = req.headers.get('content-type');
    if (!contentType || !req.body) {
      throw new AppError('invalid_request', 'Send the document as the request body, with its type as Content-Type.', [
        { code: 'missing_file', message: 'A file body and its Content-Type are required.', parameter: 'Content-Type' },
      ]);
    }
    try {
      const res = await portalTransfer({
        uploadUrl: slot.uploadUrl,
        body: req.body,
        contentType,
        filename: query.filename,
        size: declaredSize(req),
        schema: BusinessFileUploadResult,
      });
      return { status: 201, body: { upload: res.data } };
    } catch (e) {
      // The Portal refuses a signed URL that expired or was withdrawn: the slot is of no more use.
      if (isPortalError(e) && e.fromUpstream && e.status === 403) {
        await forgetUploadSlot(db, params.businessId, params.uploadId);
        throw new AppError('not_found', GONE);
      }
      throw e;
    }
  },
);
