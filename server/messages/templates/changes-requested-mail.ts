import { action, mailDocument, para } from './mail-html';
import type { RenderedMail } from './invitation-mail';

export interface ChangesRequestedMailInput {
  clientName: string | null;
  /** The staff member who reviewed. */
  reviewerName: string;
  businessName: string | null;
  /** What to change, as the form labels it, with staff's comment. */
  requests: { label: string; comment: string }[];
  /** The application's page (the client's session, or their invitation link, opens it). */
  link: string;
}

/**
 * Staff reviewed the application and ask for changes: each thing to fix with its comment, and the way back
 * to the form. Text and HTML say the same sentences; comments are staff's plain text, escaped by para().
 */
export function changesRequestedMail(input: ChangesRequestedMailInput): RenderedMail {
  const forWhom = input.businessName ? ` for ${input.businessName}` : '';
  const subject = input.businessName ? `Your application for ${input.businessName}: changes requested` : 'Your application: changes requested';
  const greeting = input.clientName ? `Hello ${input.clientName},` : 'Hello,';
  const n = input.requests.length;
  const ask = `${input.reviewerName} reviewed your application${forWhom} and asks you to change ${n === 1 ? 'one thing' : `${n} things`} before it is sent:`;
  const items = input.requests.map((r) => `${r.label}: ${r.comment}`);
  const after = 'Open your application, fix each of them (each is marked in the form), then send it back for review. If your link has expired, ask for a new one.';
  const label = 'Open your application';
  const text = [greeting, ask, items.map((i) => `- ${i}`).join('\n'), after, `${label}: ${input.link}`].join('\n\n') + '\n';
  const html = mailDocument({
    lang: 'en',
    title: subject,
    heading: input.businessName ? `Your application for ${input.businessName}` : 'Your application',
    body: [para(greeting), para(ask), ...items.map(para), para(after), action(input.link, label)].join('\n'),
    footer: `You received this message because you were invited to complete an application${forWhom}.`,
  });
  return { subject, text, html, language: 'en' };
}
