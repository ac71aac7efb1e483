'use client';

import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { ApiError, referencedMessage } from '@/lib/api/api-error';
import type { InvitationCreated, InvitationStatus, InvitationView } from '@/lib/bff/invitations';
import { invitationsQuery } from '@/lib/queries/invitations';
import { useRevokeInvitation } from '@/lib/queries/mutations/use-revoke-invitation';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { LoadState } from '../ui/load-state';
import { Notice, type NoticeState } from '../ui/notice';
import { TableHead } from '../ui/table-head';
import { When } from '../ui/when';
import { InvitationCreateForm } from './invitation-create-form';
import { InvitationLink } from './invitation-link';
import { InvitationReminders } from './invitation-reminders';

const STATUS_TEXT: Record<InvitationStatus, string> = { active: 'Active', expired: 'Expired', revoked: 'Revoked' };

/** The client's invitations to the application: create one (its link shown once), see them all, revoke one. */
export function BusinessInvitations({ applicationId, businessName }: { applicationId: string; businessName: string }) {
  const list = useQuery(invitationsQuery(applicationId));
  const revoke = useRevokeInvitation(applicationId);
  const [created, setCreated] = useState<InvitationCreated | null>(null);
  const [confirming, setConfirming] = useState<InvitationView | null>(null);
  const [notice, setNotice] = useState<NoticeState>(null);
  const [revokedCount, setRevokedCount] = useState(0);
  const heading = useRef<HTMLHeadingElement>(null);

  // The row's button is gone once revoked: the section heading is the next sensible place for focus. In an
  // effect, so it runs after the dialog has closed (focus cannot land behind an open modal).
  useEffect(() => {
    if (revokedCount > 0) heading.current?.focus();
  }, [revokedCount]);

  const revokeOne = (id: string) =>
    revoke.mutate(id, {
      onSuccess: (invitation) => {
        setConfirming(null);
        // A revoked link is of no more use to show.
        setCreated((c) => (c?.invitation.id === invitation.id ? null : c));
        setNotice({ kind: 'done', text: `The invitation${label(invitation)} is revoked: its link no longer works.` });
        setRevokedCount((n) => n + 1);
      },
      onError: (e) => {
        setConfirming(null);
        const text = e instanceof ApiError ? referencedMessage(e) : 'Try again.';
        setNotice({ kind: 'problem', text: `The invitation was not revoked. ${text}` });
      },
    });

  return (
    <section aria-labelledby="biz-invites-title" className="stack">
      <h2 id="biz-invites-title" ref={heading} tabIndex={-1}>
        Client invitations
      </h2>
      <p>An invitation link lets the client of {businessName} complete this application, and nothing else.</p>
      {created ? (
        <InvitationLink created={created} onDismiss={() => setCreated(null)} />
      ) : (
        <InvitationCreateForm applicationId={applicationId} onCreated={setCreated} />
      )}
      <Notice notice={notice} />
      <h3>Invitations so far</h3>
      <LoadState query={list} what="the invitations" />
      {list.data && list.data.items.length === 0 && <p>No invitations yet.</p>}
      {list.data && list.data.items.length > 0 && (
        <table className="table stacked biz-invites">
          <TableHead
            caption="Invitations of the application, newest first"
            columns={['Client', 'Status', 'Created', 'Expires', 'Opened']}
            actions
          />
          <tbody>
            {list.data.items.map((inv) => (
              <tr key={inv.id}>
                <td data-label="Client">{inv.client_name ?? inv.client_email ?? <span className="muted">Not named</span>}</td>
                <td data-label="Status">{STATUS_TEXT[inv.status]}</td>
                <td data-label="Created">
                  <When iso={inv.created_at} />
                </td>
                <td data-label="Expires">
                  <When iso={inv.expires_at} />
                </td>
                <td data-label="Opened">{inv.use_count === 0 ? 'Not yet' : `${inv.use_count} ${inv.use_count === 1 ? 'time' : 'times'}`}</td>
                <td>
                  {inv.status === 'active' && (
                    <button type="button" className="danger" disabled={revoke.isPending} onClick={() => setConfirming(inv)}>
                      Revoke<span className="visually-hidden"> the invitation{label(inv)}</span>
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {list.data?.items
        .filter((inv) => inv.client_email)
        .map((inv) => (
          <InvitationReminders key={inv.id} invitationId={inv.id} who={inv.client_name ?? inv.client_email!} />
        ))}
      <ConfirmDialog
        open={confirming !== null}
        title={`Revoke this invitation${confirming ? label(confirming) : ''}?`}
        confirmLabel={revoke.isPending ? 'Revoking…' : 'Yes, revoke it'}
        cancelLabel="Keep it"
        danger
        busy={revoke.isPending}
        onConfirm={() => confirming && revokeOne(confirming.id)}
        onCancel={() => setConfirming(null)}
      >
        <p>Its link stops working at once, and a client using it is signed out.</p>
      </ConfirmDialog>
    </section>
  );
}

function label(inv: InvitationView): string {
  const who = inv.client_name ?? inv.client_email;
  return who ? ` for ${who}` : '';
}
