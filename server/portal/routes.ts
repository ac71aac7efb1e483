import 'server-only';
import { ID_PATTERNS, type IdKind } from '@/lib/portal';
import { PortalError } from './errors';

declare const portalPathBrand: unique symbol;
/** A path below the base URL. Only this module mints them, so every constructed path is listed here. */
export type PortalPath = string & { readonly [portalPathBrand]: true };

const path = (p: string) => p as PortalPath;

/** Ids go into paths unencoded, so they must match their pattern (which only allows URL-safe characters). */
function id(kind: Exclude<IdKind, 'fileUpload'>, value: string): string {
  if (typeof value !== 'string' || !ID_PATTERNS[kind].test(value)) {
    throw PortalError.local('invalid_request', `Not a valid ${kind} id.`, {
      details: [{ code: 'invalid_id', message: `must match ${ID_PATTERNS[kind].source}`, parameter: kind }],
    });
  }
  return value;
}

/** DESIGN.md §5 paths, relative to PORTAL_BASE_URL. Anything else is reached through URLs returned by reads. */
export const routes = {
  apiRoot: () => path(''),
  openapi: () => path('openapi.json'),
  /** GET a page, POST to create. */
  businesses: () => path('businesses/'),
  business: (businessId: string) => path(`businesses/${id('business', businessId)}/`),
  businessStatus: (businessId: string) => path(`businesses/${id('business', businessId)}/status/`),
  businessStageTransitions: (businessId: string) => path(`businesses/${id('business', businessId)}/stage-transitions/`),
  businessPeople: (businessId: string) => path(`businesses/${id('business', businessId)}/people/`),
  businessPipelines: () => path('business-pipelines/'),
  businessPipelineStages: (pipelineId: string) => path(`business-pipelines/${id('businessPipeline', pipelineId)}/stages/`),
  application: (applicationId: string) => path(`client-intake-applications/${id('application', applicationId)}/`),
  /** DESIGN.md §5 lists the suggestion commands below the application they belong to. */
  autofillSuggestionAccept: (applicationId: string, suggestionId: string) =>
    path(`client-intake-applications/${id('application', applicationId)}/autofill-suggestions/${id('autofillSuggestion', suggestionId)}/accept/`),
  autofillSuggestionDismiss: (applicationId: string, suggestionId: string) =>
    path(`client-intake-applications/${id('application', applicationId)}/autofill-suggestions/${id('autofillSuggestion', suggestionId)}/dismiss/`),
  /** GET a page (query business_id filters), POST to create. */
  deals: () => path('deals/'),
  deal: (dealId: string) => path(`deals/${id('deal', dealId)}/`),
  dealStageTransitions: (dealId: string) => path(`deals/${id('deal', dealId)}/stage-transitions/`),
  dealPipelines: () => path('deal-pipelines/'),
  dealPipelineStages: (pipelineId: string) => path(`deal-pipelines/${id('dealPipeline', pipelineId)}/stages/`),
  recipients: () => path('recipients/'),
  dealApplication: (dealApplicationId: string) => path(`deal-applications/${id('dealApplication', dealApplicationId)}/`),
  /** DESIGN.md §6: GET a page (query business_id filters), POST to create. Criteria, runs and matches of a project are reached through its URLs. */
  projects: () => path('projects/'),
  project: (projectId: string) => path(`projects/${id('project', projectId)}/`),
  /** A run by id (a page names its run by id only). */
  matchRun: (runId: string) => path(`match-runs/${id('matchRun', runId)}/`),
  /** A match carries no URL of its own: read it and decide on it here. */
  match: (matchId: string) => path(`matches/${id('match', matchId)}/`),
  matchShortlist: (matchId: string) => path(`matches/${id('match', matchId)}/shortlist/`),
  matchDismiss: (matchId: string) => path(`matches/${id('match', matchId)}/dismiss/`),
} as const;

/**
 * A child of a collection URL returned by a read: `repeatable_items_url` + block_key (+ item_id), or
 * `files_url` + file_id. The returned URL still goes through the URL guard when requested.
 */
export function urlBelow(collectionUrl: string, ...segments: string[]): string {
  let url: URL;
  try {
    url = new URL(collectionUrl);
  } catch {
    throw PortalError.local('invalid_request', 'The collection URL is not an absolute URL.');
  }
  if (url.search || url.hash || !url.pathname.endsWith('/')) {
    throw PortalError.local('invalid_request', 'A collection URL must end in "/" and have no query string.');
  }
  for (const segment of segments) {
    if (typeof segment !== 'string' || segment === '' || segment === '.' || segment === '..' || segment.length > 512) {
      throw PortalError.local('invalid_request', 'Invalid path segment.', {
        details: [{ code: 'invalid_segment', message: 'must be 1-512 characters and not "." or ".."' }],
      });
    }
  }
  url.pathname += segments.map((s) => `${encodeURIComponent(s)}/`).join('');
  return url.href;
}
