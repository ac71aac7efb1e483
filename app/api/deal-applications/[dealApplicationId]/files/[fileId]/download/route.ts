import { downloadFile } from '@/server/applications/files';
import { dealApplicationLinks } from '@/server/deal-applications/links';
import { DealFileParams } from '@/server/deal-applications/params';
import { route } from '@/server/http/route';
import { safeDownloadHeaders } from '@/server/portal';

// GET /api/deal-applications/[dealApplicationId]/files/[fileId]/download – the file's bytes, streamed from the Portal
// (the signed download URL never reaches the browser)
export const GET = route({ roles: ['staff'], params: DealFileParams }, async ({ params, req, upstream }) => {
  const links = await dealApplicationLinks(params.dealApplicationId, req.signal);
  const res = await downloadFile(links, params.fileId, req.signal);
  upstream.requestId = res.headers.get('request-id');
  return new Response(res.body, { status: 200, headers: safeDownloadHeaders(res) });
});
