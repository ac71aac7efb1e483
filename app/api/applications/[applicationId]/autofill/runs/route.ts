import { RunsQuery, type RunsPageView } from '@/lib/bff/autofill';
import { intakeApplication } from '@/server/applications/intake-application';
import { kindRoute } from '@/server/applications/kind-route';
import { listRuns } from '@/server/autofill/runs';
import { runView } from '@/server/autofill/autofill-views';
import { ApplicationParams } from '@/server/http/path-params';

// GET /api/applications/[applicationId]/autofill/runs – a page of the application's runs, newest first (page_size, cursor)
export const GET = kindRoute(
  intakeApplication,
  { roles: ['staff', 'reviewer', 'client'], params: ApplicationParams, query: RunsQuery },
  async ({ id, links, query }) => {
    const res = await listRuns(id, await links(), query);
    const body: RunsPageView = { items: res.data.items.map(runView), next_cursor: res.data.next_cursor, previous_cursor: res.data.previous_cursor };
    return { body };
  },
);
