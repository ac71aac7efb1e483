import 'server-only';
import type { PortalFeaturesView } from '@/lib/bff/portal-features';
import { portalCapabilities } from './discovery';
import { routes } from './routes';

/** The features of the pages that rest on operations only DESIGN.md completes, as the Portal's document lists them. */
export async function portalFeatures(): Promise<PortalFeaturesView> {
  const capabilities = await portalCapabilities();
  // The business page lists a business's projects with the list's business filter.
  const funding = capabilities.accepts('GET', routes.projects(), 'business_id') && capabilities.has('GET', 'projects/{id}/');
  return {
    funding,
    fundingCreate: funding && capabilities.has('POST', routes.projects()),
    recipients: capabilities.has('GET', routes.recipients()),
    known: capabilities.source === 'document',
  };
}
