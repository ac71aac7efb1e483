import { ApiRoot } from '@/lib/portal';
import { portalView } from '@/server/businesses/business-views';
import { route } from '@/server/http/route';
import { portalRequest, routes } from '@/server/portal';

// GET /api/portal – which Portal the app works for, its environment and what the app's key may do (never the key)
export const GET = route({ roles: ['staff'] }, async () => {
  const res = await portalRequest({ path: routes.apiRoot(), schema: ApiRoot });
  return { body: portalView(res.data) };
});
