'use client';

import Link from 'next/link';
import { useEffect, useRef, useState } from 'react';
import type { InvitationCreated } from '@/lib/bff/invitations';
import { When } from '../ui/when';

/**
 * A new invitation's link, shown this once (only its hash is kept), with a copy button. Where the
 * clipboard is out of reach (an insecure origin, a refused permission) the link is selected for the
 * person to copy themselves.
 */
export function InvitationLink({ created, onDismiss }: { created: InvitationCreated; onDismiss(): void }) {
  const input = useRef<HTMLInputElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const [status, setStatus] = useState('');
  const who = created.invitation.client_name ?? created.invitation.client_email;

  useEffect(() => heading.current?.focus(), []);

  async function copy() {
    try {
      await navigator.clipboard.writeText(created.link);
      setStatus('Link copied.');
    } catch {
      input.current?.focus();
      input.current?.select();
      setStatus('The link could not be copied for you: it is selected, so press Ctrl+C (⌘C on a Mac) to copy it.');
    }
  }

  return (
    <div className="notice success biz-invite-link">
      <h3 ref={heading} tabIndex={-1}>
        Invitation link{who ? ` for ${who}` : ''}
      </h3>
      {created.message && created.invitation.client_email ? (
        <p>
          The link is being emailed to {created.invitation.client_email}: the <Link href="/outbox">Outbox</Link> shows when it is sent. It is shown here only
          now, should you want to pass it on yourself too.
        </p>
      ) : (
        <p>Send this link to the client. It is shown only now: copy it before you leave this page.</p>
      )}
      <div className="field">
        <label htmlFor="biz-invite-link">Invitation link</label>
        <div className="biz-copy">
          <input id="biz-invite-link" ref={input} readOnly value={created.link} onFocus={(e) => e.target.select()} />
          <button type="button" onClick={() => void copy()}>
            Copy link
          </button>
        </div>
      </div>
      <p>
        Expires <When iso={created.invitation.expires_at} />.
      </p>
      <p role="status">{status}</p>
      <button type="button" className="secondary" onClick={onDismiss}>
        Done
      </button>
    </div>
  );
}
