'use client';

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, referencedMessage } from '@/lib/api/api-error';
import type { MessageStatus } from '@/lib/bff/messages';
import type { ReminderStepView } from '@/lib/bff/reminders';
import { remindersQuery, useSendReminderNow, useSetRemindersPaused } from '@/lib/queries/reminders';
import { LoadState } from '../ui/load-state';
import { Notice, type NoticeState } from '../ui/notice';
import { When } from '../ui/when';

const MESSAGE_STATUS: Record<MessageStatus, string> = { queued: 'Queued', sending: 'Sending', sent: 'Sent', failed: 'Failed', suppressed: 'Not sent' };
const TEMPLATE: Record<string, string> = { invitation: 'Invitation', reminder: 'Reminder', 'reminder-overdue': 'Overdue reminder', 'overdue-staff': 'Overdue notice to staff' };
const STEP_KIND: Record<ReminderStepView['kind'], string> = { reminder: 'reminder', overdue: 'overdue reminder', manual: 'reminder sent by hand' };

/**
 * One invitation's reminders on the business page: the messages sent with their status, the next reminder and
 * when, pause/resume, and "send a reminder now" (the server allows one an hour; its refusal is shown as is).
 */
export function InvitationReminders({ invitationId, who }: { invitationId: string; who: string }) {
  const view = useQuery(remindersQuery(invitationId));
  const pause = useSetRemindersPaused(invitationId);
  const now = useSendReminderNow(invitationId);
  const [notice, setNotice] = useState<NoticeState>(null);
  const problem = (what: string) => (e: Error) => setNotice({ kind: 'problem', text: `${what} ${e instanceof ApiError ? referencedMessage(e) : 'Try again.'}` });
  const v = view.data;
  // The last step skipped says why the schedule ended (submitted, revoked, expired, sent for review).
  const stopped = v?.next === null ? (v.steps.findLast((s) => s.status === 'skipped')?.outcome ?? null) : null;
  const done = v?.unsubscribed || (v !== undefined && v.next === null && v.steps.every((s) => s.status !== 'scheduled'));

  return (
    <section aria-labelledby={`rem-${invitationId}`} className="stack invitation-reminders">
      <h4 id={`rem-${invitationId}`}>Reminders to {who}</h4>
      <LoadState query={view} what="the reminders" />
      {v && (
        <>
          <p>
            {v.unsubscribed
              ? 'The client asked for no more reminders.'
              : v.paused
                ? 'Reminders are paused.'
                : v.next
                  ? (
                      <>
                        Next {STEP_KIND[v.next.kind]}: <When iso={v.next.due_at} />.
                      </>
                    )
                  : stopped
                    ? `No more reminders: ${stopped}`
                    : 'No reminder is scheduled.'}
            {v.due_at && (
              <>
                {' '}
                Due by <When iso={v.due_at} />.
              </>
            )}
          </p>
          <div className="actions">
            {!v.unsubscribed && !done && (
              <button
                type="button"
                className="secondary"
                disabled={pause.isPending}
                onClick={() =>
                  pause.mutate(!v.paused, {
                    onSuccess: (r) => setNotice({ kind: 'done', text: r.paused ? `Reminders to ${who} are paused.` : `Reminders to ${who} are resumed.` }),
                    onError: problem('Nothing changed.'),
                  })
                }
              >
                {v.paused ? 'Resume reminders' : 'Pause reminders'}
                <span className="visually-hidden"> to {who}</span>
              </button>
            )}
            {!v.unsubscribed && (
              <button
                type="button"
                disabled={now.isPending || v.send_now_after !== null}
                onClick={() =>
                  now.mutate(undefined, {
                    onSuccess: () => setNotice({ kind: 'done', text: `A reminder to ${who} is queued.` }),
                    onError: problem('No reminder was sent.'),
                  })
                }
              >
                Send a reminder now<span className="visually-hidden"> to {who}</span>
              </button>
            )}
          </div>
          {v.send_now_after && (
            <p className="muted">
              A reminder was sent by hand recently: the next can go from <When iso={v.send_now_after} />.
            </p>
          )}
          <Notice notice={notice} />
          {v.messages.length > 0 && (
            <ul className="reminder-messages">
              {v.messages.map((m) => (
                <li key={m.id}>
                  {TEMPLATE[m.template] ?? m.template}: {MESSAGE_STATUS[m.status]}, <When iso={m.sent_at ?? m.created_at} />
                  {m.held_reason && <span className="muted"> ({m.held_reason})</span>}
                  {m.last_error && m.status !== 'sent' && <span className="muted"> ({m.last_error})</span>}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
