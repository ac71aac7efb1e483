import 'server-only';
import { FileUploadQuery, FilesQuery } from '@/lib/bff/files';
import { deleteFile, downloadFile, listFiles, uploadFile } from '@/server/applications/files';
import { checkUploadRequest } from '@/server/applications/upload-request';
import { fileView } from '@/server/applications/views';
import { route } from '@/server/http/route';
import { safeDownloadHeaders } from '@/server/portal';
import type { KindWithFiles } from './kind';
import { applicationIdOf, kindParams } from './params';

/**
 * GET …/files (a page of the attached files: filters, cursor, page_size) and POST …/files?block_key=&
 * schema_key=&field_key=&item_id= (one file: the body is its bytes, named in X-Filename, streamed on).
 */
export function filesRoutes<Id extends string>(kind: KindWithFiles<Id>) {
  const params = kindParams(kind).application;
  const application = applicationIdOf(kind);

  const GET = route({ roles: kind.roles.read, params, query: FilesQuery, application }, async ({ params, query, req, upstream }) => {
    const links = await kind.links.get(params[kind.idParam], req.signal);
    const res = await listFiles(links, query, req.signal);
    upstream.requestId = res.requestId;
    return { body: { items: res.data.items.map(fileView), next_cursor: res.data.next_cursor } };
  });

  const POST = route(
    {
      roles: kind.roles.write,
      params,
      query: FileUploadQuery,
      body: 'stream',
      application,
      audit: {
        operation: kind.audit.files.upload,
        object: ({ params, query }) => ({
          type: 'file_question',
          id: [query.block_key, query.item_id, query.schema_key, query.field_key].filter(Boolean).join('/'),
          applicationId: params[kind.idParam],
        }),
      },
    },
    async ({ params, query, req, upstream }) => {
      const upload = checkUploadRequest(req, query);
      const links = await kind.links.get(params[kind.idParam], req.signal);
      const { file, requestId } = await uploadFile(links, query, upload, req.signal);
      upstream.requestId = requestId;
      return { status: 201, body: { file: fileView(file) } };
    },
  );

  return { GET, POST };
}

/** DELETE …/files/[fileId] (remove an attached file). */
export function fileRoutes<Id extends string>(kind: KindWithFiles<Id>) {
  const DELETE = route(
    {
      roles: kind.roles.write,
      params: kindParams(kind).file,
      application: applicationIdOf(kind),
      audit: { operation: kind.audit.files.delete, object: ({ params }) => ({ type: 'file', id: params.fileId, applicationId: params[kind.idParam] }) },
    },
    async ({ params, req, upstream }) => {
      const links = await kind.links.get(params[kind.idParam], req.signal);
      const res = await deleteFile(links, params.fileId, req.signal);
      upstream.requestId = res.requestId;
      return { body: { id: res.data.id, deleted: true } };
    },
  );
  return { DELETE };
}

/** GET …/files/[fileId]/download: the file's bytes, streamed from the Portal (its signed URL never reaches the browser). */
export function fileDownloadRoutes<Id extends string>(kind: KindWithFiles<Id>) {
  const GET = route({ roles: kind.roles.read, params: kindParams(kind).file, application: applicationIdOf(kind) }, async ({ params, req, upstream }) => {
    const links = await kind.links.get(params[kind.idParam], req.signal);
    const res = await downloadFile(links, params.fileId, req.signal);
    upstream.requestId = res.headers.get('request-id');
    return new Response(res.body, { status: 200, headers: safeDownloadHeaders(res) });
  });
  return { GET };
}
