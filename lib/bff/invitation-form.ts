import { z } from 'zod';
import { INVITATION_TTL_HOURS, InvitationCreateBody } from './invitations';

const { min, max } = INVITATION_TTL_HOURS;

/**
 * The invite-a-client form: strings as typed (empty means "not given"), checked with messages people can
 * act on, then piped into the shared InvitationCreateBody the route accepts.
 */
export const InvitationForm = z
  .object({
    client_name: z.string().trim().max(200, 'Use at most 200 characters'),
    client_email: z
      .string()
      .trim()
      .max(254, 'Use at most 254 characters')
      .refine((v) => v === '' || z.email().safeParse(v).success, 'Enter a valid email address, or leave it out'),
    ttl_hours: z
      .string()
      .trim()
      .regex(/^\d+$/, 'Enter a whole number of hours')
      .refine((v) => Number(v) >= min && Number(v) <= max, `Enter between ${min} and ${max} hours (${max / 24} days)`),
    /** Staff pass the link on themselves instead of the app mailing it. */
    link_only: z.boolean(),
    /** YYYY-MM-DD from a date input, or empty: no due date. */
    due_date: z.string().trim().refine((v) => v === '' || /^\d{4}-\d{2}-\d{2}$/.test(v), 'Enter the due date as a date, or leave it out')
      .optional(),
    /** The client submits to the Portal itself; unticked (the default), they send for review and staff submit. */
    client_submits: z.boolean().default(false),
  })
  .transform(
    (v): InvitationCreateBody => ({
      client_name: v.client_name || null,
      client_email: v.client_email || null,
      ttl_hours: Number(v.ttl_hours),
      delivery: v.link_only ? 'link_only' : 'email',
      ...(v.due_date ? { due_date: v.due_date } : {}),
      client_submits: v.client_submits,
    }),
  )
  .pipe(InvitationCreateBody);

export type InvitationFormValues = z.input<typeof InvitationForm>;

export const emptyInvitationForm = (): InvitationFormValues => ({ client_name: '', client_email: '', ttl_hours: String(INVITATION_TTL_HOURS.default), link_only: false, due_date: '', client_submits: false });
