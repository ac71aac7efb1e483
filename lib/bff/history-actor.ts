/**
 * Who changed an answer. Plain data and text, no schema library: the form's History disclosure uses it in the
 * browser, where the intake form's bundle stays free of zod.
 */
export const HISTORY_ACTORS = ['staff', 'reviewer', 'client', 'autofill', 'outside'] as const;
export type HistoryActorKind = (typeof HISTORY_ACTORS)[number];

/** Who made a change, as the subject of a sentence ("Sam Staff changed …"). */
export function historyActorText(by: { kind: HistoryActorKind; name: string | null }): string {
  switch (by.kind) {
    case 'staff':
    case 'reviewer':
      return by.name ?? 'A staff member';
    case 'client':
      return 'The client';
    case 'autofill':
      return by.name ? `An Autofill suggestion accepted by ${by.name}` : 'An accepted Autofill suggestion';
    case 'outside':
      return 'Someone outside this app (in the Portal)';
  }
}
