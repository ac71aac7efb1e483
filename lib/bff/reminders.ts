import { z } from 'zod';
import { MessageStatus } from './messages';

export const ReminderStepStatus = z.enum(['scheduled', 'sent', 'skipped']);
export const ReminderStepKind = z.enum(['reminder', 'overdue', 'manual']);

/** One step of an invitation's reminders: when it is (or was) due, and what became of it. */
export const ReminderStepView = z.object({
  step: z.string(),
  kind: ReminderStepKind,
  due_at: z.string(),
  status: ReminderStepStatus,
  /** Why a step was skipped (submitted, revoked, unsubscribed…), or null. */
  outcome: z.string().nullable(),
  message_id: z.string().nullable(),
});
export type ReminderStepView = z.infer<typeof ReminderStepView>;

/** A message of the invitation as the business page lists it (the Outbox has the bodies). */
export const InvitationMessageView = z.object({
  id: z.string(),
  template: z.string(),
  subject: z.string(),
  status: MessageStatus,
  created_at: z.string(),
  sent_at: z.string().nullable(),
  held_reason: z.string().nullable(),
  last_error: z.string().nullable(),
});
export type InvitationMessageView = z.infer<typeof InvitationMessageView>;

/** An invitation's reminders: the plan, its state, the messages sent, and the next step. */
export const InvitationRemindersView = z.object({
  invitation_id: z.string(),
  client_email: z.string().nullable(),
  due_at: z.string().nullable(),
  time_zone: z.string().nullable(),
  paused: z.boolean(),
  unsubscribed: z.boolean(),
  /** The next step that will go (null: none is left, or the invitation is done). */
  next: ReminderStepView.nullable(),
  steps: z.array(ReminderStepView),
  messages: z.array(InvitationMessageView),
  /** When "send a reminder now" works again (null: it does now). */
  send_now_after: z.string().nullable(),
});
export type InvitationRemindersView = z.infer<typeof InvitationRemindersView>;

export const RemindersPauseBody = z.strictObject({ paused: z.boolean() });
export type RemindersPauseBody = z.infer<typeof RemindersPauseBody>;

/** The one-click unsubscribe's reply to a mail client (a browser is sent back to the page instead). */
export const UnsubscribeReply = z.object({ unsubscribed: z.literal(true) });
export type UnsubscribeReply = z.infer<typeof UnsubscribeReply>;

/** An application past its due date and not submitted (the staff home's Overdue list). */
export interface OverdueApplication {
  application_id: string;
  business_id: string | null;
  business_name: string | null;
  client: string | null;
  due_at: string;
  progress_percent: number | null;
}
