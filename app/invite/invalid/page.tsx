import type { Metadata } from 'next';
import { INVITATION_REFUSAL_REASONS, type InvitationRefusalReason } from '@/lib/bff/invitations';

export const metadata: Metadata = { title: 'Invitation link not valid', robots: { index: false, follow: false } };

const EXPLANATIONS: Record<InvitationRefusalReason, { title: string; body: string }> = {
  unknown: {
    title: 'We don’t recognise this invitation link',
    body: 'Check that you opened the whole link from your email: links sometimes break across two lines. If it still does not work, ask the person who invited you to send a new link.',
  },
  expired: {
    title: 'This invitation link has expired',
    body: 'Invitation links work for a limited time. Ask the person who invited you to send a new link; your answers so far are kept.',
  },
  revoked: {
    title: 'This invitation link has been withdrawn',
    body: 'The person who invited you has cancelled this link. If you still need to complete your application, ask them for a new link.',
  },
  error: {
    title: 'We could not open your invitation just now',
    body: 'Something went wrong on our side. Please open the link from your email again in a few minutes.',
  },
};

const isReason = (v: unknown): v is InvitationRefusalReason => INVITATION_REFUSAL_REASONS.some((r) => r === v);

// /invite/invalid?reason=unknown|expired|revoked|error – where /invite/<token> sends a link it cannot open
export default async function InvitationInvalidPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { reason } = await searchParams;
  const text = EXPLANATIONS[isReason(reason) ? reason : 'unknown'];
  return (
    <section aria-labelledby="invite-invalid-title">
      <h1 id="invite-invalid-title">{text.title}</h1>
      <p>{text.body}</p>
    </section>
  );
}
