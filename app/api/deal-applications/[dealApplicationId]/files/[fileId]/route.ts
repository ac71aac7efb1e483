import { deleteFile } from '@/server/applications/files';
import { dealApplicationLinks } from '@/server/deal-applications/links';
import { DealFileParams } from '@/server/deal-applications/params';
import { route } from '@/server/http/route';

// DELETE /api/deal-applications/[dealApplicationId]/files/[fileId] – remove an attached file
export const DELETE = route(
  {
    roles: ['staff'],
    params: DealFileParams,
    audit: {
      operation: 'deal_application.file_delete',
      object: ({ params }) => ({ type: 'file', id: params.fileId, applicationId: params.dealApplicationId }),
    },
  },
  async ({ params, req, upstream }) => {
    const links = await dealApplicationLinks(params.dealApplicationId, req.signal);
    const res = await deleteFile(links, params.fileId, req.signal);
    upstream.requestId = res.requestId;
    return { body: { id: res.data.id, deleted: true } };
  },
);
