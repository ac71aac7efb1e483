import { downloadFile } from '@/server/applications/files';
import { applicationLinks } from '@/server/applications/links';
import { FileParams, byApplication } from '@/server/applications/route-params';
import { route } from '@/server/http/route';
import { safeDownloadHeaders } from '@/server/portal';

// GET /api/applications/[applicationId]/files/[fileId]/download – the file's bytes, streamed from the Portal
// (the signed download URL never reaches the browser)
export const GET = route(
  { roles: ['staff', 'reviewer', 'client'], params: FileParams, application: byApplication },
  async ({ params, req, upstream }) => {
    const links = await applicationLinks(params.applicationId, req.signal);
    const res = await downloadFile(links, params.fileId, req.signal);
    upstream.requestId = res.headers.get('request-id');
    return new Response(res.body, { status: 200, headers: safeDownloadHeaders(res) });
  },
);
