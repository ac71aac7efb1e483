import 'server-only';
import type { HistoryEntryView } from '@/lib/bff/history';
import type { HistoryEntry } from './history-store';

export const historyEntryView = (e: HistoryEntry): HistoryEntryView => ({
  id: e.id,
  schema_key: e.schema_key,
  field_key: e.field_key,
  item_id: e.item_id,
  old: { known: e.old_known, value: e.old_value },
  new_value: e.new_value,
  by: { kind: e.actor_kind, name: e.actor_name },
  answers_revision: e.revision,
  at: e.at.toISOString(),
});
