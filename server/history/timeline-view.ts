import 'server-only';
import { historyActorText } from '@/lib/bff/history-actor';
import type { TimelineItemView, TimelineView } from '@/lib/bff/timeline';
import type { TimelineEvent, TimelineOperation } from './timeline';

const ACTIONS: Record<TimelineOperation, string> = {
  'application.submit': 'submitted the application to the Portal',
  'deal_application.submit': 'submitted the deal application',
  'files.upload': 'attached a document',
  'files.delete': 'removed a document',
  'deal_application.file_upload': 'attached a document',
  'deal_application.file_delete': 'removed a document',
  'items.create': 'added an item to a list',
  'items.delete': 'removed an item from a list',
  'deal_application.item_create': 'added an item to a list',
  'deal_application.item_delete': 'removed an item from a list',
  'autofill.start': 'started Autofill',
  'autofill.suggestion_accept': 'accepted an Autofill suggestion',
  'autofill.suggestion_dismiss': 'dismissed an Autofill suggestion',
};

const MAIL_STATUS = { queued: 'waiting to be sent', sending: 'being sent', sent: 'sent', failed: 'not delivered: see the Outbox', suppressed: 'not sent' } as const;

/** How the timeline names a field and writes its values: from the application's contract. */
export interface FieldDescriber {
  label(schemaKey: string, fieldKey: string): string;
  value(schemaKey: string, fieldKey: string, value: unknown): string;
}

function itemOf(e: TimelineEvent, fields: FieldDescriber, i: number): TimelineItemView {
  const key = `${e.kind}-${e.at.toISOString()}-${i}`;
  const at = e.at.toISOString();
  switch (e.kind) {
    case 'answer': {
      const text = (v: unknown) => fields.value(e.schema_key, e.field_key, v);
      const what = `“${fields.label(e.schema_key, e.field_key)}”${e.item_id ? ' (in a list item)' : ''}`;
      return { key, at, text: `${historyActorText(e.by)} ${e.old.known ? 'changed' : 'set'} ${what}`, change: { from: e.old.known ? text(e.old.value) : null, to: text(e.new_value) } };
    }
    case 'invited':
      return { key, at, text: `${e.by ?? 'Staff'} invited ${e.to ?? 'the client'} to complete the application`, change: null };
    case 'link_opened':
      return { key, at, text: 'The client opened the invitation link', change: null };
    case 'invitation_revoked':
      return { key, at, text: 'The invitation link was revoked', change: null };
    case 'mail':
      return { key, at, text: `Mail to ${e.to}: “${e.subject}” (${MAIL_STATUS[e.status]})`, change: null };
    case 'review': {
      const who = e.by.kind === 'client' ? 'The client' : (e.by.name ?? 'A staff member');
      const what = {
        sent_for_review: 'sent the application for review',
        changes_requested: `requested changes (${e.detail ?? 'some'} to make)`,
        request_resolved: e.by.kind === 'client' ? `resolved the change request on “${e.detail ?? ''}” by changing it` : `resolved the change request on “${e.detail ?? ''}”`,
        submitted: 'ended the review by submitting the application',
      }[e.step];
      return { key, at, text: `${who} ${what}`, change: null };
    }
    case 'action':
      return { key, at, text: `${e.by.kind === 'invitation' ? 'The client' : e.by.label} ${ACTIONS[e.operation]}`, change: null };
  }
}

export function timelineView(
  page: { events: TimelineEvent[]; nextBefore: Date | null },
  fields: FieldDescriber,
): TimelineView {
  return { items: page.events.map((e, i) => itemOf(e, fields, i)), olderBefore: page.nextBefore?.toISOString() ?? null };
}
