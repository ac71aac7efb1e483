import 'server-only';
import { ApiRoot } from '@/lib/portal';
import { portalRequest, routes } from '@/server/portal';

/** The Portal's name, for "who asked" and "who to contact"; the client's pages do without it rather than fail. */
export const organisationName = (): Promise<string | null> =>
  portalRequest({ path: routes.apiRoot(), schema: ApiRoot }).then(
    (r) => r.data.portal.name,
    () => null,
  );
