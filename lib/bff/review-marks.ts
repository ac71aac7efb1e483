import { z } from 'zod';
import { ID_PATTERNS } from '@/lib/portal';
import type { ReviewState } from './review-text';

/**
 * Review mode (DESIGN.md §9): staff go through the answers section by section and mark each "Looks right".
 * A mark holds while the value it was given to does; each answer has its own ETag (its value and its mark),
 * so two staff marking different answers never stand in each other's way, and marking an answer whose value
 * or mark moved since the page read it is a 412. The views are plain types (no zod in a client bundle).
 */

const Key = z.string().regex(/^[a-z][a-z0-9_]{0,99}$/, 'not a key');

export const ReviewMarkBody = z.strictObject({
  schema_key: Key,
  field_key: Key,
  item_id: z.string().regex(ID_PATTERNS.repeatableItem, 'not an item id').nullish(),
  file_id: z.string().regex(ID_PATTERNS.answerFile, 'not a file id').nullish(),
  /** true: "Looks right"; false: the mark is taken back. */
  looks_right: z.boolean(),
});
export type ReviewMarkBody = z.input<typeof ReviewMarkBody>;

/** One answer to review: a field's value, or one attached file. */
export interface ReviewAnswerView {
  /** Stable within the application: the form's name of the field, with the file's id for a file. */
  key: string;
  /** The form's field name (what a link to the field focuses). */
  field_name: string;
  schema_key: string;
  field_key: string;
  item_id: string | null;
  file_id: string | null;
  /** The question as the form names it, with the item's place for an answer in a list. */
  label: string;
  value_text: string;
  /** The If-Match of marking this answer. */
  etag: string;
  /** Who marked it "Looks right" and when, while the value is the one marked. */
  mark: { by: string | null; at: string } | null;
  /** It was marked, and the value has changed since: to review again. */
  changed_since_mark: boolean;
}

/** One item of a list, which a change may be asked of as a whole. */
export interface ReviewItemView {
  block_key: string;
  item_id: string;
  /** "Owners, item 1". */
  label: string;
}

export interface ReviewSectionView {
  section_key: string;
  label: string;
  reviewed: number;
  total: number;
  answers: ReviewAnswerView[];
  items: ReviewItemView[];
}

export interface ReviewMarksView {
  state: ReviewState;
  /** Answers marked "Looks right" whose value is still the one marked. */
  reviewed: number;
  /** Every answered, shown answer and attached file. */
  total: number;
  sections: ReviewSectionView[];
}

export interface ReviewMarksReply {
  marks: ReviewMarksView;
}
