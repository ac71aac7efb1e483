import { NextResponse, type NextRequest } from 'next/server';
import { readBusinessStatus } from '@/server/businesses/status';
import { getEnv } from '@/server/env';
import { requestOrigin } from '@/server/http/csrf';
import { pageAccess, signInHref } from '@/server/http/page-guard';
import { isPortalError } from '@/server/portal';

const notFound = () => new NextResponse('Not found', { status: 404 });

// GET /businesses/[businessId]/application – a link from the businesses list: 303 to the business's intake form.
// The page guard decides who may follow it; it answers 303 (not the 307 of redirect()) as a link that moves on.
export async function GET(req: NextRequest, { params }: { params: Promise<{ businessId: string }> }) {
  const { businessId } = await params;
  const origin = requestOrigin(req, getEnv().appOrigin);
  const seeOther = (path: string) => NextResponse.redirect(new URL(path, origin), 303);
  // Whoever may not open it signs in (again) and comes back to the list it is linked from.
  const access = await pageAccess({ path: '/businesses', roles: ['staff'], othersGoTo: signInHref('/businesses'), ids: { business: businessId } });
  if ('redirect' in access) return seeOther(access.redirect);
  if ('notFound' in access) return notFound();
  try {
    const app = (await readBusinessStatus(businessId)).data.application;
    return seeOther(app ? `/applications/${app.id}` : `/businesses?missing=${encodeURIComponent(businessId)}`);
  } catch (e) {
    if (isPortalError(e) && e.status === 404) return notFound();
    throw e;
  }
}
