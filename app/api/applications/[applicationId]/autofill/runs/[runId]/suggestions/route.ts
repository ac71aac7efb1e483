import { SuggestionsQuery, type SuggestionsPageView } from '@/lib/bff/autofill';
import { intakeApplication } from '@/server/applications/intake-application';
import { kindRoute } from '@/server/applications/kind-route';
import { RunParams } from '@/server/http/path-params';
import { listSuggestions } from '@/server/autofill/runs';
import { suggestionView } from '@/server/autofill/autofill-views';

// GET /api/applications/[applicationId]/autofill/runs/[runId]/suggestions – a page of the run's suggestions in
// contract order (page_size, cursor, status)
export const GET = kindRoute(
  intakeApplication,
  { roles: ['staff', 'reviewer'], params: RunParams, query: SuggestionsQuery },
  async ({ id, links, params, query }) => {
    const res = await listSuggestions(id, await links(), params.runId, query);
    const body: SuggestionsPageView = {
      items: res.data.items.map(suggestionView),
      next_cursor: res.data.next_cursor,
      previous_cursor: res.data.previous_cursor,
    };
    return { body };
  },
);
