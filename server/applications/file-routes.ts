import 'server-only';
import { formApi } from '@/lib/api/endpoints';
import { FileUploadQuery, FilesQuery } from '@/lib/bff/files';
import { deleteFile, downloadFile, listFiles, uploadFile } from './files';
import { checkUploadRequest, fileQuestionRules } from './upload-request';
import { fileView } from './application-views';
import { safeDownloadHeaders } from '@/server/portal';
import type { KindWithFiles } from './kind';
import { kindRoute } from './kind-route';
import { kindParams } from './kind-params';

/**
 * GET …/files (a page of the attached files: filters, cursor, page_size) and POST …/files?block_key=&
 * schema_key=&field_key=&item_id= (one file: the body is its bytes, named in X-Filename, streamed on).
 */
export function filesRoutes<Id extends string>(kind: KindWithFiles<Id>) {
  const params = kindParams(kind).application;

  const GET = kindRoute(kind, formApi.files.GET, { roles: kind.roles.read, params, query: FilesQuery }, async ({ links, query }) => {
    const res = await listFiles(await links(), query);
    return { body: { items: res.data.items.map(fileView), next_cursor: res.data.next_cursor } };
  });

  const POST = kindRoute(
    kind,
    formApi.files.POST,
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
    async ({ links, query, req }) => {
      const upload = checkUploadRequest(req, fileQuestionRules(query));
      const { file } = await uploadFile(await links(), query, upload);
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
    formApi.file.DELETE,
    {
      roles: kind.roles.write,
      params,
      audit: { operation: kind.audit.files.delete, object: ({ params }) => ({ type: 'file', id: params.fileId, applicationId: params[kind.idParam] }) },
    },
    async ({ links, params }) => {
      const res = await deleteFile(await links(), params.fileId);
      return { body: { id: res.data.id, deleted: true as const } };
    },
  );

  // The signed download URL never reaches the browser.
  const download = kindRoute(kind, formApi.fileDownload.GET, { roles: kind.roles.read, params }, async ({ links, params }) => {
    const { file, res } = await downloadFile(await links(), params.fileId);
    return new Response(res.body, { status: 200, headers: safeDownloadHeaders(res, file.filename) });
  });

  return { file: { DELETE }, fileDownload: { GET: download } };
}
