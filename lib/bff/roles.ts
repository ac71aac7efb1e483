/**
 * Who a session acts as: staff and reviewers sign in with an account, a client arrives by an invitation
 * link and reaches one application. Plain data (no zod) so the browser can use it without a schema library.
 */
export const ROLES = ['staff', 'reviewer', 'client'] as const;
export type Role = (typeof ROLES)[number];

/** The roles an account (a user row) can hold; a client is never a user. */
export const ACCOUNT_ROLES = ['staff', 'reviewer'] as const satisfies readonly Role[];
export type AccountRole = (typeof ACCOUNT_ROLES)[number];
