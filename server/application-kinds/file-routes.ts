import 'server-only';
import { FileUploadQuery, FilesQuery } from '@/lib/bff/files';
import { deleteFile, downloadFile, listFiles, uploadFile } from '@/server/applications/files';
import { checkUploadRequest, fileQuestionRules } from '@/server/applications/upload-request';
import { fileView } from '@/server/applications/views';
import { safeDownloadHeaders } from '@/server/portal';
import type { KindWithFiles } from './kind';
import { kindRoute } from './kind-route';
import { kindParams } from './params';

/**
 * GET …/files (a page of the attached files: filters, cursor, page_size) and POST …/files?block_key=&
 * schema_key=&field_key=&item_id= (one file: the body is its bytes, named in X-Filename, streamed on).
 */
export function filesRoutes<Id extends string>(kind: KindWithFiles<Id>) {
  const params = kindParams(kind).application;

  const GET = kindRoute(kind, { roles: kind.roles.read, params, query: FilesQuery }, async ({ links, query, req, upstream }) => {
    const res = await listFiles(await links(), query, req.signal);
    upstream.requestId = res.requestId;
    return { body: { items: res.data.items.map(fileView), next_cursor: res.data.next_cursor } };
  });

  const POST = kindRoute(
    kind,
    {
      roles: kind.roles.write,
      params,
      query: FileUploadQuery,
      body: 'stream',
      audit: {
        operation: kind.audit.files.upload,
        object: ({ params, query }) => ({
          type: 'file_question',
          id: [query.block_key, query.item_id, query.schema_key, query.field_key].filter(Boolean).join('/'),
          applicationId: params[kind.idParam],
        }),
      },
    },
    async ({ links, query, req, upstream }) => {
      const upload = checkUploadRequest(req, fileQuestionRules(query));
      const { file, requestId } = await uploadFile(await links(), query, upload, req.signal);
      upstream.requestId = requestId;
      return { status: 201, body: { file: fileView(file) } };
    },
  );

  return { GET, POST };
}

/** DELETE …/files/[fileId] (remove an attached file) and GET …/files/[fileId]/download (its bytes, streamed from the Portal). */
export function fileRoutes<Id extends string>(kind: KindWithFiles<Id>) {
  const params = kindParams(kind).file;

  const DELETE = kindRoute(
    kind,
    {
      roles: kind.roles.write,
      params,
      audit: { operation: kind.audit.files.delete, object: ({ params }) => ({ type: 'file', id: params.fileId, applicationId: params[kind.idParam] }) },
    },
    async ({ links, params, req, upstream }) => {
      const res = await deleteFile(await links(), params.fileId, req.signal);
      upstream.requestId = res.requestId;
      return { body: { id: res.data.id, deleted: true } };
    },
  );

  // The signed download URL never reaches the browser.
  const download = kindRoute(kind, { roles: kind.roles.read, params }, async ({ links, params, req, upstream }) => {
    const { file, res } = await downloadFile(await links(), params.fileId, req.signal);
    upstream.requestId = res.headers.get('request-id');
    return new Response(res.body, { status: 200, headers: safeDownloadHeaders(res, file.filename) });
  });

  return { file: { DELETE }, fileDownload: { GET: download } };
}
