import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound, redirect } from 'next/navigation';
import { BusinessDetail } from '@/components/businesses/business-detail';
import { BusinessId } from '@/lib/portal';
import { readBusinessStatus } from '@/server/businesses/status';
import { businessView } from '@/server/businesses/views';
import { currentSession } from '@/server/http/current-session';
import { isPortalError } from '@/server/portal';

export const metadata: Metadata = { title: 'Business' };

interface PageProps {
  params: Promise<{ businessId: string }>;
}

// /businesses/[businessId] – one business: status, workflow stages, people, application and client invitations (staff only)
export default async function BusinessPage({ params }: PageProps) {
  const { businessId } = await params;
  const session = await currentSession();
  if (!session) redirect(`/sign-in?next=${encodeURIComponent(`/businesses/${businessId}`)}`);
  if (session.role !== 'staff') redirect('/');
  if (!BusinessId.safeParse(businessId).success) notFound();
  let initial;
  try {
    const res = await readBusinessStatus(businessId);
    initial = businessView(res.data, res.etag ?? '');
  } catch (e) {
    if (isPortalError(e) && e.status === 404) notFound();
    throw e;
  }
  return (
    <div className="biz-page-wide">
      <p>
        <Link href="/businesses">← Businesses</Link>
      </p>
      <BusinessDetail initial={initial} />
    </div>
  );
}
