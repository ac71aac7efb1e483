import { action, mailDocument, para } from './mail-html';
import type { RenderedMail } from './invitation-mail';

/** Reminders and overdue notices are written in English. */
export const REMINDER_LANGUAGE = 'en';

export interface ReminderMailInput {
  clientName: string | null;
  inviterName: string;
  businessName: string | null;
  /** How much of the application is done (0–100), as the app last knew it; null when unknown. */
  progressPercent: number | null;
  /** The sections not complete and the documents not given, by label, as the app last knew them (empty: not known). */
  sectionsLeft: readonly string[];
  documentsLeft: readonly string[];
  /** The client has opened the link before. */
  opened: boolean;
  /** The due date as the recipient reads it (already in their zone), or null. */
  dueText: string | null;
  overdue: boolean;
  /** The invitation's own link (the one its first mail carried). */
  link: string;
  unsubscribeUrl: string;
}

/** Where the client stands, in one sentence: what the app knows of their progress and visits. */
function progressSentence(input: ReminderMailInput): string {
  if (!input.opened) return 'You have not opened your application yet: it takes a first visit to see what is asked.';
  if (input.progressPercent === null) return 'You have started your application; the rest is waiting for you.';
  if (input.progressPercent >= 100) return 'Every question is answered: what is left is to check your answers and submit the application.';
  return `Your application is ${input.progressPercent}% complete: your answers so far are kept, and ${100 - input.progressPercent}% is left.`;
}

/** At most this many of a list are named; the rest are counted. */
const NAMED = 5;

/** "A, B and C", or "A, B, C, D, E and 3 more". */
function named(list: readonly string[]): string {
  const shown = list.slice(0, NAMED);
  const rest = list.length - shown.length;
  if (rest > 0) return `${shown.join(', ')} and ${rest} more`;
  return shown.length > 1 ? `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}` : (shown[0] ?? '');
}

/** What is left, when the app knows it: the sections to finish, the documents to upload. */
function leftSentences(input: ReminderMailInput): string[] {
  if (!input.opened) return [];
  const lines: string[] = [];
  if (input.sectionsLeft.length > 0) lines.push(`Still to finish: ${named(input.sectionsLeft)}.`);
  if (input.documentsLeft.length > 0) lines.push(`Documents still to upload: ${named(input.documentsLeft)}.`);
  return lines;
}

/**
 * A reminder to the client: how far they are, what is left, the due date (or that it has passed), the link, and in the
 * footer why they get it and how to stop reminders (the same address as the List-Unsubscribe header).
 */
export function reminderMail(input: ReminderMailInput): RenderedMail {
  const forWhom = input.businessName ? ` for ${input.businessName}` : '';
  const subject = input.overdue ? `Overdue: your application${forWhom}` : `Reminder: your application${forWhom}`;
  const greeting = input.clientName ? `Hello ${input.clientName},` : 'Hello,';
  const ask = `${input.inviterName} is waiting for your application${forWhom}.`;
  const due = input.dueText ? (input.overdue ? `It was due on ${input.dueText}. Please finish it as soon as you can.` : `It is due on ${input.dueText}.`) : null;
  const label = 'Continue your application';
  const lines = [greeting, ask, progressSentence(input), ...leftSentences(input), ...(due ? [due] : [])];
  const footer = `You received this reminder because ${input.inviterName} invited this address to complete an application${forWhom} that is not submitted yet. To get no more reminders about it, open ${input.unsubscribeUrl}`;
  const text = [...lines, `${label}: ${input.link}`, '--', footer].join('\n\n') + '\n';
  const html = mailDocument({
    lang: REMINDER_LANGUAGE,
    title: subject,
    heading: input.overdue ? `Your application${forWhom} is overdue` : `Your application${forWhom}`,
    body: [...lines.map(para), action(input.link, label)].join('\n'),
    footer,
  });
  return { subject, text, html, language: REMINDER_LANGUAGE };
}

export interface OverdueMailInput {
  inviterName: string;
  clientText: string;
  businessName: string | null;
  progressPercent: number | null;
  dueText: string;
  pageUrl: string;
}

/** To the inviting staff member: their client's application is past its due date and not submitted. */
export function overdueStaffMail(input: OverdueMailInput): RenderedMail {
  const what = input.businessName ? `The application for ${input.businessName}` : 'An application you invited a client to';
  const subject = `Overdue: ${input.businessName ? `the application for ${input.businessName}` : 'an application'} (${input.clientText})`;
  const lines = [
    `Hello ${input.inviterName},`,
    `${what} was due on ${input.dueText} and is not submitted. ${input.clientText} has been sent an overdue reminder.`,
    input.progressPercent === null ? 'How far it is is not known yet.' : `It is ${input.progressPercent}% complete.`,
  ];
  const label = 'Open the business';
  const footer = 'You received this because you invited the client to this application. Reminders can be paused on the business page.';
  const text = [...lines, `${label}: ${input.pageUrl}`, '--', footer].join('\n\n') + '\n';
  const html = mailDocument({ lang: REMINDER_LANGUAGE, title: subject, heading: 'An application is overdue', body: [...lines.map(para), action(input.pageUrl, label)].join('\n'), footer });
  return { subject, text, html, language: REMINDER_LANGUAGE };
}
