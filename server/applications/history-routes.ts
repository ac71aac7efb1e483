import 'server-only';
import { formApi } from '@/lib/api/endpoints';
import { HistoryQuery } from '@/lib/bff/history';
import { historySettled } from '@/server/history/history-recorder';
import { applicationHistory, fieldHistory } from '@/server/history/history-store';
import { historyEntryView } from '@/server/history/history-views';
import type { AnyApplicationKind } from './kind';
import { kindRoute } from './kind-route';
import { kindParams } from './kind-params';

const PAGE = 50;

/** GET …/answers/history: one question's changes (schema_key; field_key, item_id) or the application's, newest first. */
export function historyRoutes<Id extends string>(kind: AnyApplicationKind<Id>) {
  const GET = kindRoute(kind, formApi.history.GET, { roles: kind.roles.read, params: kindParams(kind).application, query: HistoryQuery }, async ({ id, db, query }) => {
    // What was noted up to this request is in before it is read, so a write is in its own history at once.
    await historySettled(db);
    const limit = query.limit ?? PAGE;
    const before = query.before ?? null;
    const entries =
      query.schema_key !== undefined
        ? await fieldHistory(db, id, { schema_key: query.schema_key, field_key: query.field_key ?? null, item_id: query.item_id ?? null }, limit + 1, before)
        : await applicationHistory(db, id, limit + 1, before);
    const page = entries.slice(0, limit);
    return { body: { entries: page.map(historyEntryView), next_before: entries.length > limit ? page.at(-1)!.id : null } };
  });
  return { GET };
}
