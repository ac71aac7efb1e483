import { deleteFile } from '@/server/applications/files';
import { applicationLinks } from '@/server/applications/links';
import { FileParams, byApplication } from '@/server/applications/route-params';
import { route } from '@/server/http/route';

// DELETE /api/applications/[applicationId]/files/[fileId] – remove an attached file
export const DELETE = route(
  {
    roles: ['staff', 'client'],
    params: FileParams,
    application: byApplication,
    audit: { operation: 'files.delete', object: ({ params }) => ({ type: 'file', id: params.fileId, applicationId: params.applicationId }) },
  },
  async ({ params, req, upstream }) => {
    const links = await applicationLinks(params.applicationId, req.signal);
    const res = await deleteFile(links, params.fileId, req.signal);
    upstream.requestId = res.requestId;
    return { body: { id: res.data.id, deleted: true } };
  },
);
