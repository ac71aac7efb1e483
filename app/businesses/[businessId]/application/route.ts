import { NextResponse, type NextRequest } from 'next/server';
import { BusinessId } from '@/lib/portal';
import { readBusinessStatus } from '@/server/businesses/status';
import { requestOrigin } from '@/server/http/csrf';
import { appDb } from '@/server/db/app-db';
import { sessionOf } from '@/server/http/route';
import { getEnv } from '@/server/env';
import { isPortalError } from '@/server/portal';

// GET /businesses/[businessId]/application – a link from the businesses list: 303 to the business's intake form
export async function GET(req: NextRequest, { params }: { params: Promise<{ businessId: string }> }) {
  const { businessId } = await params;
  const origin = requestOrigin(req, getEnv().appOrigin);
  const session = await sessionOf(req, await appDb(), origin);
  if (!session || session.role !== 'staff') return NextResponse.redirect(new URL(`/sign-in?next=/businesses`, origin), 303);
  if (!BusinessId.safeParse(businessId).success) return new NextResponse('Not found', { status: 404 });
  try {
    const res = await readBusinessStatus(businessId, req.signal);
    const app = res.data.application;
    if (!app) return NextResponse.redirect(new URL(`/businesses?missing=${encodeURIComponent(businessId)}`, origin), 303);
    return NextResponse.redirect(new URL(`/applications/${app.id}`, origin), 303);
  } catch (e) {
    if (isPortalError(e) && e.status === 404) return new NextResponse('Not found', { status: 404 });
    throw e;
  }
}
