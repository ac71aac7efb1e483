import { readBusinessStatus } from '@/server/businesses/status';
import { guardPage, readOrNotFound, seeOther, signInHref, type PageProps } from '@/server/http/page-guard';

// /businesses/[businessId]/application – a link from the businesses list: 303 to the business's intake form.
// Whoever may not open it signs in (again) and comes back to the list it is linked from; a business the Portal
// does not have is the app's not-found page (404). Nothing is rendered: every way out is a status.
export default async function BusinessApplicationLink({ params }: PageProps<'businessId'>) {
  const { businessId } = await params;
  await guardPage({ path: '/businesses', roles: ['staff'], othersGoTo: signInHref('/businesses'), ids: { business: businessId } });
  const app = (await readOrNotFound(readBusinessStatus(businessId))).data.application;
  seeOther(app ? `/applications/${app.id}` : `/businesses?missing=${encodeURIComponent(businessId)}`);
}
