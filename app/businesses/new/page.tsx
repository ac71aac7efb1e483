import type { Metadata } from 'next';
import Link from 'next/link';
import { BusinessCreate } from '@/components/businesses/business-create';
import { ApiRoot } from '@/lib/portal';
import { portalView } from '@/server/businesses/business-views';
import { guardPage, type PageProps } from '@/server/http/page-guard';
import { portalRequest, routes } from '@/server/portal';

export const metadata: Metadata = { title: 'Create a business' };

// /businesses/new – create a business with its contact and first documents (staff only)
export default async function NewBusinessPage({ searchParams }: PageProps) {
  await guardPage({ path: '/businesses/new', query: await searchParams, roles: ['staff'] });
  // The key's kind decides whether a lead source is asked for: read before the form is drawn.
  const root = await portalRequest({ path: routes.apiRoot(), schema: ApiRoot });
  return (
    <section aria-labelledby="biz-new-title" className="biz-page">
      <p>
        <Link href="/businesses">← Businesses</Link>
      </p>
      <h1 id="biz-new-title">Create a business</h1>
      <p>The Portal creates the business with its intake application; you can invite its client afterwards.</p>
      <BusinessCreate initialPortal={portalView(root.data)} />
    </section>
  );
}
