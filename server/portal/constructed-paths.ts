import type { routes } from './routes';

/** A path routes.ts builds, as a template below the base URL, with the methods the BFF sends to it. */
export interface ConstructedPath {
  methods: readonly string[];
  template: string;
}

/**
 * Every path routes.ts constructs (DESIGN.md §5's guesses where the spec says "not shown"), checked against the
 * Portal's /openapi.json at start (discovery.ts): one the document does not list is named, since a call to it
 * would fail. Keyed by the routes entry, so a new one cannot be added without its template here.
 */
export const CONSTRUCTED_PATHS: Record<keyof typeof routes, ConstructedPath> = {
  apiRoot: { methods: ['GET'], template: '' },
  openapi: { methods: ['GET'], template: 'openapi.json' },
  businesses: { methods: ['GET', 'POST'], template: 'businesses/' },
  business: { methods: ['GET'], template: 'businesses/{id}/' },
  businessStatus: { methods: ['GET'], template: 'businesses/{id}/status/' },
  businessStageTransitions: { methods: ['POST'], template: 'businesses/{id}/stage-transitions/' },
  businessPeople: { methods: ['GET'], template: 'businesses/{id}/people/' },
  businessPipelines: { methods: ['GET'], template: 'business-pipelines/' },
  businessPipelineStages: { methods: ['GET'], template: 'business-pipelines/{id}/stages/' },
  application: { methods: ['GET'], template: 'client-intake-applications/{id}/' },
  autofillSuggestionAccept: { methods: ['POST'], template: 'client-intake-applications/{id}/autofill-suggestions/{id}/accept/' },
  autofillSuggestionDismiss: { methods: ['POST'], template: 'client-intake-applications/{id}/autofill-suggestions/{id}/dismiss/' },
  deals: { methods: ['GET', 'POST'], template: 'deals/' },
  deal: { methods: ['GET'], template: 'deals/{id}/' },
  dealStageTransitions: { methods: ['POST'], template: 'deals/{id}/stage-transitions/' },
  dealPipelines: { methods: ['GET'], template: 'deal-pipelines/' },
  dealPipelineStages: { methods: ['GET'], template: 'deal-pipelines/{id}/stages/' },
  recipients: { methods: ['GET'], template: 'recipients/' },
  dealApplication: { methods: ['GET'], template: 'deal-applications/{id}/' },
  projects: { methods: ['GET', 'POST'], template: 'projects/' },
  project: { methods: ['GET'], template: 'projects/{id}/' },
  matchRun: { methods: ['GET'], template: 'match-runs/{id}/' },
  match: { methods: ['GET'], template: 'matches/{id}/' },
  matchShortlist: { methods: ['POST'], template: 'matches/{id}/shortlist/' },
  matchDismiss: { methods: ['POST'], template: 'matches/{id}/dismiss/' },
};
