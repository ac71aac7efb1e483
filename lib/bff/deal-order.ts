// Without zod (unlike deals.ts, which re-exports it): the deal pages' client queries use it.

/** Newest first (the Portal lists deals oldest first); ties keep their order. */
export const newestDealsFirst = <T extends { created_at: string }>(deals: readonly T[]): T[] =>
  [...deals].sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at));
