import { SuggestionsQuery, type SuggestionsPageView } from '@/lib/bff/autofill';
import { applicationLinks, byApplication } from '@/server/application-kinds/intake';
import { RunParams } from '@/server/http/path-params';
import { listSuggestions } from '@/server/autofill/runs';
import { suggestionView } from '@/server/autofill/views';
import { route } from '@/server/http/route';

// GET /api/applications/[applicationId]/autofill/runs/[runId]/suggestions – a page of the run's suggestions in
// contract order (page_size, cursor, status)
export const GET = route(
  { roles: ['staff', 'reviewer'], params: RunParams, query: SuggestionsQuery, application: byApplication },
  async ({ params, query, req, upstream }) => {
    const links = await applicationLinks(params.applicationId, req.signal);
    const res = await listSuggestions(params.applicationId, links, params.runId, query, req.signal);
    upstream.requestId = res.requestId;
    const body: SuggestionsPageView = {
      items: res.data.items.map(suggestionView),
      next_cursor: res.data.next_cursor,
      previous_cursor: res.data.previous_cursor,
    };
    return { body };
  },
);
