import { FileUploadQuery, FilesQuery } from '@/lib/bff/files';
import { listFiles, uploadFile } from '@/server/applications/files';
import { checkUploadRequest } from '@/server/applications/upload-request';
import { fileView } from '@/server/applications/views';
import { dealApplicationLinks } from '@/server/deal-applications/links';
import { DealApplicationParams } from '@/server/deal-applications/params';
import { route } from '@/server/http/route';

// GET /api/deal-applications/[dealApplicationId]/files – a page of the files attached to file questions (filters, cursor, page_size)
export const GET = route({ roles: ['staff'], params: DealApplicationParams, query: FilesQuery }, async ({ params, query, req, upstream }) => {
  const links = await dealApplicationLinks(params.dealApplicationId, req.signal);
  const res = await listFiles(links, query, req.signal);
  upstream.requestId = res.requestId;
  return { body: { items: res.data.items.map(fileView), next_cursor: res.data.next_cursor } };
});

// POST /api/deal-applications/[dealApplicationId]/files?block_key=&schema_key=&field_key=&item_id= – upload one file
// (the body is the file's bytes, named in X-Filename), streamed on to the Portal
export const POST = route(
  {
    roles: ['staff'],
    params: DealApplicationParams,
    query: FileUploadQuery,
    body: 'stream',
    audit: {
      operation: 'deal_application.file_upload',
      object: ({ params, query }) => ({
        type: 'file_question',
        id: [query.block_key, query.item_id, query.schema_key, query.field_key].filter(Boolean).join('/'),
        applicationId: params.dealApplicationId,
      }),
    },
  },
  async ({ params, query, req, upstream }) => {
    const upload = checkUploadRequest(req, query);
    const links = await dealApplicationLinks(params.dealApplicationId, req.signal);
    const { file, requestId } = await uploadFile(links, query, upload, req.signal);
    upstream.requestId = requestId;
    return { status: 201, body: { file: fileView(file) } };
  },
);
