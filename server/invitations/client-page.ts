import 'server-only';
import { findUserById } from '@/server/auth';
import { appDb } from '@/server/db/app-db';
import { guardPage, type SearchParams } from '@/server/http/page-guard';
import { findInvitation } from './invitations';
import { organisationName } from './organisation-name';

/**
 * A page of the invited client's own (the welcome, the confirmation): only their session may open it (anyone
 * else goes to the form), and it names who invited them and for which organisation. `read` reads what the page
 * shows, beside those (the form snapshot: the page passes it, as the application wing is not this module's).
 */
export async function invitedClientPage<T>(applicationId: string, page: 'welcome' | 'submitted', query: SearchParams, read: () => Promise<T>) {
  const session = await guardPage({
    path: `/applications/${applicationId}/${page}`,
    query,
    roles: ['client'],
    othersGoTo: `/applications/${applicationId}`,
    application: applicationId,
  });
  const db = await appDb();
  const invitation = await findInvitation(db, session.invitationId);
  const [shown, inviter, organisation] = await Promise.all([read(), invitation ? findUserById(db, invitation.createdBy) : Promise.resolve(null), organisationName()]);
  return { shown, invitation, inviter, organisation };
}
