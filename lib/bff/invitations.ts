import { z } from 'zod';
import { HEADER_UNSAFE_MESSAGE, headerSafe } from './messages';

/** Shape of an invitation id (server/db/ids.ts newId('inv')): checked before any lookup. */
export const INVITATION_ID_PATTERN = /^inv_[0-9a-f]{24}$/;

/** How long a link stays valid, in hours: a week by default, at most 30 days (links travel by email). */
export const INVITATION_TTL_HOURS = { min: 1, max: 720, default: 168 } as const;

export const InvitationCreateBody = z.strictObject({
  // Checked before trimming: a line break at either end is refused, not quietly dropped.
  client_email: z.string().refine(headerSafe, HEADER_UNSAFE_MESSAGE).pipe(z.string().trim().max(254).pipe(z.email('Enter a valid email address'))).nullish(),
  client_name: z.string().refine(headerSafe, HEADER_UNSAFE_MESSAGE).pipe(z.string().trim().min(1, 'Enter a name or leave it out').max(200)).nullish(),
  /** With client_email: 'email' mails the link (the default), 'link_only' leaves staff to pass the link on themselves. */
  delivery: z.enum(['email', 'link_only']).default('email'),
  ttl_hours: z.int().min(INVITATION_TTL_HOURS.min).max(INVITATION_TTL_HOURS.max).default(INVITATION_TTL_HOURS.default),
  /** The day the application is due (the end of that day in time_zone): an overdue reminder goes then, and the inviter is told. */
  due_date: z.iso.date('Enter the due date as YYYY-MM-DD').nullish(),
  /** The recipient's IANA time zone (quiet hours and the due date are theirs); the settings' zone when absent. */
  time_zone: z.string().trim().max(64).regex(/^[A-Za-z][A-Za-z0-9_+\-/]*$/, 'Enter an IANA time zone such as Europe/London').nullish(),
  /** Days after the invitation a reminder goes, ascending (up to 10); absent: the settings' schedule; empty: none. */
  reminder_days: z
    .array(z.int().min(1).max(365))
    .max(10)
    .refine((days) => days.every((d, i) => i === 0 || d > days[i - 1]!), 'List the days in ascending order, each once')
    .nullish(),
  /** true: the client submits to the Portal itself; false (the default): the client sends for review and staff submit. */
  client_submits: z.boolean().default(false),
});
export type InvitationCreateBody = z.input<typeof InvitationCreateBody>;

export const InvitationStatus = z.enum(['active', 'expired', 'revoked']);
export type InvitationStatus = z.infer<typeof InvitationStatus>;

/** An invitation as staff see it. Never its token: that exists only in the create reply's link. */
export const InvitationView = z.object({
  id: z.string(),
  status: InvitationStatus,
  client_email: z.string().nullable(),
  client_name: z.string().nullable(),
  created_at: z.string(),
  expires_at: z.string(),
  revoked_at: z.string().nullable(),
  first_used_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
  use_count: z.int().min(0),
  client_submits: z.boolean(),
});
export type InvitationView = z.infer<typeof InvitationView>;

/** The create reply: the only time the link (and so the token) is shown. */
export const InvitationCreated = z.object({
  invitation: InvitationView,
  link: z.string(),
  /** The invitation mail queued with it, when one was (the Outbox says how its delivery goes). */
  message: z.object({ id: z.string(), status: z.string() }).nullable(),
});
export type InvitationCreated = z.infer<typeof InvitationCreated>;

/** Where the invited client is in the form (the section they opened), so a later visit reopens it. */
export const ClientPlaceBody = z.strictObject({
  section_key: z.string().min(1).max(200),
  /** The browser's IANA time zone: the client's reminders keep out of their night there, unless staff named one. */
  time_zone: z.string().trim().max(64).regex(/^[A-Za-z][A-Za-z0-9_+\-/]*$/).optional(),
});
export type ClientPlaceBody = z.infer<typeof ClientPlaceBody>;

export const InvitationList = z.object({ items: z.array(InvitationView) });
export type InvitationList = z.infer<typeof InvitationList>;

/** A signed-in person's "continue as the invited client" on the confirmation page of a link. */
export const InvitationAcceptBody = z.strictObject({ token: z.string().min(1).max(200) });
export type InvitationAcceptBody = z.infer<typeof InvitationAcceptBody>;

/** Where the browser goes once the client's session replaced the one it held. */
export const InvitationAccepted = z.object({ location: z.string() });
export type InvitationAccepted = z.infer<typeof InvitationAccepted>;

/** Why /invite/<token> sent the browser to /invite/invalid (its `reason` query parameter). */
export const INVITATION_REFUSAL_REASONS = ['unknown', 'expired', 'revoked', 'error'] as const;
export type InvitationRefusalReason = (typeof INVITATION_REFUSAL_REASONS)[number];

export { invitationStateText } from './invitation-state';
