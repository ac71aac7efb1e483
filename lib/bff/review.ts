import { z } from 'zod';
import { ID_PATTERNS } from '@/lib/portal';
import { REVIEW_TEXT_MAX, type ReviewState } from './review-text';

/**
 * Review before submit (DESIGN.md §9): the application's review state with its revision, and the change
 * requests staff make on one answer, one item or one file. The views are plain types: the intake form's
 * bundle imports them without zod.
 */
export type { ReviewState };


// NUL and the bidirectional controls make text read differently from what it is; line breaks are fine here.
const UNSAFE_IN_TEXT = /[\0\u200e\u200f\u202a-\u202e\u2066-\u2069\u061c]/;
const reviewText = (what: string) =>
  z
    .string()
    .refine((v) => !UNSAFE_IN_TEXT.test(v), 'Must not contain NUL or text-direction control characters')
    .pipe(z.string().trim().min(1, `Write the ${what}`).max(REVIEW_TEXT_MAX, `At most ${REVIEW_TEXT_MAX} characters`));

const Key = z.string().regex(/^[a-z][a-z0-9_]{0,99}$/, 'not a key');
const ItemId = z.string().regex(ID_PATTERNS.repeatableItem, 'not an item id');
const FileId = z.string().regex(ID_PATTERNS.answerFile, 'not a file id');

/** What a change request points at. */
export const ChangeTarget = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('answer'), schema_key: Key, field_key: Key, item_id: ItemId.nullish() }),
  z.strictObject({ kind: z.literal('item'), block_key: Key, item_id: ItemId }),
  z.strictObject({ kind: z.literal('file'), schema_key: Key, field_key: Key, file_id: FileId, item_id: ItemId.nullish() }),
]);
export type ChangeTarget = z.infer<typeof ChangeTarget>;

export const ChangeRequestCreateBody = z.strictObject({
  target: ChangeTarget,
  comment: reviewText('comment'),
  /** For staff only: never shown to the client. */
  staff_note: reviewText('note').nullish(),
});
export type ChangeRequestCreateBody = z.input<typeof ChangeRequestCreateBody>;

export const ChangeRequestReplyBody = z.strictObject({ request_id: z.string().regex(/^chg_[0-9a-f]{24}$/, 'not a change request id'), text: reviewText('reply') });
export type ChangeRequestReplyBody = z.input<typeof ChangeRequestReplyBody>;

export const ChangeRequestResolveBody = z.strictObject({ request_id: z.string().regex(/^chg_[0-9a-f]{24}$/, 'not a change request id') });
export type ChangeRequestResolveBody = z.input<typeof ChangeRequestResolveBody>;

export interface ChangeReplyView {
  by: 'staff' | 'client';
  name: string | null;
  text: string;
  at: string;
}

export interface ChangeRequestView {
  id: string;
  target: 'answer' | 'item' | 'file';
  /** The form's name of the field it is about (the link to it), or null when the form has no such field. */
  field_name: string | null;
  item_id: string | null;
  file_id: string | null;
  /** "Legal business name", "Owners (an item)", "Bank statements (a file)". */
  label: string;
  comment: string;
  /** Staff's own note: present for staff, always null for the client. */
  staff_note: string | null;
  created_at: string;
  status: 'open' | 'resolved';
  resolved_how: 'staff' | 'changed' | null;
  resolved_at: string | null;
  /** When the client's change resolved it: the value then and now, as text. */
  changed: { from: string; to: string } | null;
  replies: ChangeReplyView[];
}

export interface ReviewView {
  state: ReviewState;
  revision: number;
  /** The If-Match of the next review action. */
  etag: string;
  /** Whether the client submits to the Portal itself (no review step). */
  client_submits: boolean;
  requests: ChangeRequestView[];
  open_count: number;
}

export interface ReviewReply {
  review: ReviewView;
}

/** One application in a review queue of staff home. */
export interface ReviewQueueItem {
  application_id: string;
  business_name: string | null;
  /** When it entered its state. */
  since: string;
}

export interface ReviewQueuesView {
  in_review: { count: number; items: ReviewQueueItem[] };
  changes_requested: { count: number; items: ReviewQueueItem[] };
}
