import type { RenderedMail } from './invitation-mail';
import { overdueStaffMail, reminderMail, REMINDER_LANGUAGE, type OverdueMailInput, type ReminderMailInput } from './reminder-mail';

/**
 * A message kept as what its template needs rather than as its bodies (the bulk path: a reminder tick's
 * thousands): plain JSON, so it can be stored as it is and rendered the same later.
 */
export type DeferredMail = { template: 'reminder'; input: ReminderMailInput } | { template: 'overdue-staff'; input: OverdueMailInput };

/** The language the message will be in, known before it is rendered (the outbox row names it when queued). */
export function deferredLanguage(mail: DeferredMail): string {
  switch (mail.template) {
    case 'reminder':
    case 'overdue-staff':
      return REMINDER_LANGUAGE;
  }
}

export function renderDeferred(mail: DeferredMail): RenderedMail {
  switch (mail.template) {
    case 'reminder':
      return reminderMail(mail.input);
    case 'overdue-staff':
      return overdueStaffMail(mail.input);
  }
}

/** Whether the message is waiting to be rendered (as opposed to rendered already). */
export const isDeferred = (mail: RenderedMail | DeferredMail): mail is DeferredMail => 'input' in mail;
