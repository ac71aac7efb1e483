/** One line of an application's timeline, as the page shows it: a sentence, and for an answer its values. */
export interface TimelineItemView {
  key: string;
  at: string;
  /** "Sam Staff changed “Legal business name”", "The client opened the invitation link", … */
  text: string;
  /** An answer's change: `from` is null when its earlier value was never seen. */
  change: { from: string | null; to: string } | null;
}

export interface TimelineView {
  items: TimelineItemView[];
  /** The `before` of the next (older) page, or null. */
  olderBefore: string | null;
}
