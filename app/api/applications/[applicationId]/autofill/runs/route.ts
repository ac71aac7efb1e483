import { RunsQuery, type RunsPageView } from '@/lib/bff/autofill';
import { applicationLinks, byApplication } from '@/server/application-kinds/intake';
import { listRuns } from '@/server/autofill/runs';
import { runView } from '@/server/autofill/views';
import { route } from '@/server/http/route';
import { ApplicationParams } from '@/server/http/path-params';

// GET /api/applications/[applicationId]/autofill/runs – a page of the application's runs, newest first (page_size, cursor)
export const GET = route(
  { roles: ['staff', 'reviewer', 'client'], params: ApplicationParams, query: RunsQuery, application: byApplication },
  async ({ params, query, req, upstream }) => {
    const links = await applicationLinks(params.applicationId, req.signal);
    const res = await listRuns(params.applicationId, links, query, req.signal);
    upstream.requestId = res.requestId;
    const body: RunsPageView = { items: res.data.items.map(runView), next_cursor: res.data.next_cursor, previous_cursor: res.data.previous_cursor };
    return { body };
  },
);
