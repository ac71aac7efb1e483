import 'server-only';
import type { ChangeRequestView, ReviewView } from '@/lib/bff/review';
import { fieldOf, recordedValueText, type FormModel } from '@/lib/forms';
import type { ChangeRequestRow, ReplyRow } from './change-requests';
import { fieldNameOf } from './change-target';
import { reviewEtag, type StateRow } from './review-state';

/** The review as a page shows it; the client never gets staff's notes. */
export function reviewView(
  state: StateRow,
  clientSubmits: boolean,
  list: { requests: ChangeRequestRow[]; replies: ReplyRow[] },
  model: FormModel,
  forClient: boolean,
): ReviewView {
  const requests = list.requests.map(
    (r): ChangeRequestView => ({
      id: r.id,
      target: r.target,
      field_name: fieldNameOf(model, r),
      item_id: r.item_id || null,
      file_id: r.file_id || null,
      label: r.label,
      comment: r.comment,
      staff_note: forClient ? null : r.staff_note,
      created_at: r.created_at.toISOString(),
      status: r.resolved_at ? 'resolved' : 'open',
      resolved_how: r.resolved_how,
      resolved_at: r.resolved_at?.toISOString() ?? null,
      changed: r.resolved_how === 'changed' ? { from: recordedValueText(fieldOf(model, r.schema_key, r.field_key), r.changed_from), to: recordedValueText(fieldOf(model, r.schema_key, r.field_key), r.changed_to) } : null,
      replies: list.replies.filter((p) => p.request_id === r.id).map((p) => ({ by: p.author_kind, name: p.author_name, text: p.text, at: p.at.toISOString() })),
    }),
  );
  return {
    state: state.state,
    revision: state.revision,
    etag: reviewEtag(state.revision),
    client_submits: clientSubmits,
    requests,
    open_count: requests.filter((r) => r.status === 'open').length,
  };
}
