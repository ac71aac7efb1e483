import { action, mailDocument, para } from './mail-html';

export interface InvitationMailInput {
  /** Who is asked (the client's name as staff typed it), when known. */
  clientName: string | null;
  /** The staff member who invited. */
  inviterName: string;
  /** The Portal's name (the organisation asking), when the Portal says it. */
  organisationName: string | null;
  /** The business the application is for, when it has a name. */
  businessName: string | null;
  /** How far the application is, when the Portal says it. */
  progress: { completed: number; total: number } | null;
  link: string;
  expiresAt: Date;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
  language: string;
}

const dateText = (d: Date) => new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(d) + ' UTC';

/**
 * The invitation: who asks, for which business, what is left to do, until when the link works, and the link.
 * Text and HTML come from the same sentences, so the two never say different things.
 */
export function invitationMail(input: InvitationMailInput): RenderedMail {
  const asker = input.organisationName ? `${input.inviterName} of ${input.organisationName}` : input.inviterName;
  const forWhom = input.businessName ? ` for ${input.businessName}` : '';
  const subject = input.businessName ? `Your application for ${input.businessName}: information needed` : 'Your application: information needed';
  const greeting = input.clientName ? `Hello ${input.clientName},` : 'Hello,';
  const ask = `${asker} asks you to complete an application${forWhom}. You can answer the questions and upload the documents online, in as many visits as you like: your answers are kept.`;
  const progress =
    input.progress && input.progress.total > 0
      ? input.progress.completed === 0
        ? `There are ${input.progress.total} questions to answer.`
        : `${input.progress.completed} of ${input.progress.total} questions are answered already; ${input.progress.total - input.progress.completed} are left.`
      : null;
  const until = `The link works until ${dateText(input.expiresAt)}. Do not forward it: it opens your application without a password.`;
  const footer = `You received this message because ${asker} invited this address to complete an application${forWhom}. If you did not expect it, ignore it: nothing happens unless the link is opened.`;
  const label = 'Open your application';
  const lines = [greeting, ask, ...(progress ? [progress] : []), until];
  const text = [...lines.slice(0, -1), `${label}: ${input.link}`, lines.at(-1), '--', footer].join('\n\n') + '\n';
  const html = mailDocument({
    lang: 'en',
    title: subject,
    heading: input.businessName ? `Your application for ${input.businessName}` : 'Your application',
    body: [...lines.slice(0, -1).map(para), action(input.link, label), para(until)].join('\n'),
    footer,
  });
  return { subject, text, html, language: 'en' };
}
