import type { Metadata } from 'next';
import { ClientSubmitted } from '@/components/welcome/client-submitted';
import { formatCalendarDate } from '@/components/ui/when';
import { answersCopy } from '@/lib/forms/answers-copy';
import { readFormSnapshot } from '@/server/applications/form-snapshot';
import { intakeApplication } from '@/server/applications/intake-application';
import { readOrNotFound, seeOther, type PageProps } from '@/server/http/page-guard';
import { invitedClientPage } from '@/server/invitations/client-page';

export const metadata: Metadata = { title: 'Application sent' };

// /applications/[applicationId]/submitted – the invited client's confirmation: what was sent, when, what happens next, who to contact, a copy of the answers
export default async function SubmittedPage({ params, searchParams }: PageProps<'applicationId'>) {
  const { applicationId } = await params;
  const { shown: snapshot, inviter, organisation } = await invitedClientPage(applicationId, 'submitted', await searchParams, () =>
    readOrNotFound(readFormSnapshot(intakeApplication, applicationId)),
  );
  const submittedAt = snapshot.application.submitted_at;
  // Not sent yet: the form is where it is finished.
  if (submittedAt === null) seeOther(`/applications/${applicationId}`);
  return (
    <ClientSubmitted
      view={{
        applicationId,
        applicationName: snapshot.contract.application_name,
        businessName: snapshot.application.business?.name ?? null,
        submittedAt,
        organisation,
        contact: inviter ? { name: inviter.name, email: inviter.email } : null,
        sections: answersCopy({ contract: snapshot.contract, answers: snapshot.answers.items, items: snapshot.items, files: snapshot.files, calendarDate: formatCalendarDate }),
      }}
    />
  );
}
