import { autofillRoutes } from '@/server/autofill/autofill-routes';

// POST /api/applications/[applicationId]/autofill/suggestions/[suggestionId]/dismiss – set a suggestion aside
// (409 stale or not pending)
export const { POST } = autofillRoutes.suggestionDismiss;
