import { z } from 'zod';

/**
 * Characters that must never reach a mail header or a name shown in one: line breaks (a header of the
 * attacker's own), NUL, and the bidirectional controls that make text read differently from what it is.
 */
const UNSAFE_IN_HEADER = /[\r\n\0\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\u061c]/;

export const headerSafe = (value: string) => !UNSAFE_IN_HEADER.test(value);
export const HEADER_UNSAFE_MESSAGE = 'Must not contain line breaks, NUL or text-direction control characters';

export const MessageStatus = z.enum(['queued', 'sending', 'sent', 'failed', 'suppressed']);
export type MessageStatus = z.infer<typeof MessageStatus>;

/** A message as staff see it in the Outbox (its bodies included: staff read what the client got). */
export const MessageView = z.object({
  id: z.string(),
  template: z.string(),
  recipient: z.string(),
  recipient_name: z.string().nullable(),
  subject: z.string(),
  text_body: z.string(),
  html_body: z.string(),
  application_id: z.string().nullable(),
  invitation_id: z.string().nullable(),
  status: MessageStatus,
  attempts: z.int().min(0),
  last_error: z.string().nullable(),
  /** Why a queued message waits (the per-recipient daily cap), or null. */
  held_reason: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  sent_at: z.string().nullable(),
  created_at: z.string(),
});
export type MessageView = z.infer<typeof MessageView>;

export const OutboxPage = z.object({ items: z.array(MessageView), smtp_configured: z.boolean() });
export type OutboxPage = z.infer<typeof OutboxPage>;

/** The reply of a resend: the new message. */
export const MessageQueued = z.object({ message: MessageView });
export type MessageQueued = z.infer<typeof MessageQueued>;
