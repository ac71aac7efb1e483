import type { MessageStatus, MessageView } from '@/lib/bff/messages';
import { When } from '../ui/when';
import { OutboxMessageBody } from './outbox-message-body';

const STATUS_TEXT: Record<MessageStatus, string> = {
  queued: 'Queued',
  sending: 'Sending',
  sent: 'Sent',
  failed: 'Failed',
  suppressed: 'Not sent',
};

/**
 * Every message as the recipient got it: the HTML in a sandboxed frame (no script runs, no form submits, no
 * link navigates this page; nothing it could fetch is allowed by the page's CSP either), framed only once the
 * reader opens it, and the plain text.
 */
export function OutboxList({ items }: { items: readonly MessageView[] }) {
  return (
    <ol className="outbox-list">
      {items.map((m) => (
        <li key={m.id}>
          <article aria-labelledby={`msg-${m.id}`} className="outbox-item">
            <h2 id={`msg-${m.id}`}>{m.subject}</h2>
            <dl className="facts">
              <div>
                <dt>To</dt>
                <dd className="breakable">{m.recipient_name ? `${m.recipient_name} <${m.recipient}>` : m.recipient}</dd>
              </div>
              <div>
                <dt>Status</dt>
                <dd data-status={m.status}>
                  {STATUS_TEXT[m.status]}
                  {m.attempts > 1 ? ` after ${m.attempts} attempts` : ''}
                </dd>
              </div>
              <div>
                <dt>Queued</dt>
                <dd>
                  <When iso={m.created_at} />
                </dd>
              </div>
              {m.sent_at && (
                <div>
                  <dt>Sent</dt>
                  <dd>
                    <When iso={m.sent_at} />
                  </dd>
                </div>
              )}
              {m.next_attempt_at && m.attempts > 0 && (
                <div>
                  <dt>Next try</dt>
                  <dd>
                    <When iso={m.next_attempt_at} />
                  </dd>
                </div>
              )}
              {m.held_reason && m.next_attempt_at && (
                <div>
                  <dt>Held until</dt>
                  <dd className="breakable">
                    <When iso={m.next_attempt_at} /> — {m.held_reason}
                  </dd>
                </div>
              )}
              {m.last_error && (
                <div>
                  <dt>{m.status === 'sent' ? 'Earlier problem' : 'Reason'}</dt>
                  <dd className="breakable">{m.last_error}</dd>
                </div>
              )}
            </dl>
            <OutboxMessageBody subject={m.subject} html={m.html_body} text={m.text_body} />
          </article>
        </li>
      ))}
    </ol>
  );
}
