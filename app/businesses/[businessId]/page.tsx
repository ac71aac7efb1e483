import type { Metadata } from 'next';
import Link from 'next/link';
import { BusinessDetail } from '@/components/businesses/business-detail';
import { readBusinessStatus } from '@/server/businesses/status';
import { businessView } from '@/server/businesses/business-views';
import { guardPage, readOrNotFound, type PageProps } from '@/server/http/page-guard';
import { portalFeatures } from '@/server/portal';

export const metadata: Metadata = { title: 'Business' };

// /businesses/[businessId] – one business: status, workflow stages, people, application and client invitations (staff only)
export default async function BusinessPage({ params, searchParams }: PageProps<'businessId'>) {
  const { businessId } = await params;
  await guardPage({ path: `/businesses/${businessId}`, query: await searchParams, roles: ['staff'], ids: { business: businessId } });
  const [res, features] = await Promise.all([readOrNotFound(readBusinessStatus(businessId)), portalFeatures()]);
  const initial = businessView(res.data, res.etag ?? '');
  return (
    <div className="biz-page-wide">
      <p>
        <Link href="/businesses">← Businesses</Link>
      </p>
      <BusinessDetail initial={initial} features={features} />
    </div>
  );
}
