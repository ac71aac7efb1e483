import { ClientPlaceBody } from '@/lib/bff/invitations';
import { AppError } from '@/server/http/app-error';
import { route } from '@/server/http/route';
import { ApplicationParams } from '@/server/http/path-params';
import { rememberSection } from '@/server/invitations/client-welcome';

// PUT /api/applications/[applicationId]/place – the invited client opened a section: the form reopens there next time.
// Not audited: a bookmark in the BFF's own database, no change to the application (the audit log is of writes that matter).
export const PUT = route(
  { roles: ['client'], params: ApplicationParams, body: ClientPlaceBody, application: ({ params }) => params.applicationId },
  async ({ params, body, db, session }) => {
    if (session?.kind !== 'client') throw new AppError('forbidden', 'Only the invited client has a place in the form.');
    await rememberSection(db, { id: session.invitationId, applicationId: params.applicationId }, body.section_key);
    return { body: { section_key: body.section_key } };
  },
);
