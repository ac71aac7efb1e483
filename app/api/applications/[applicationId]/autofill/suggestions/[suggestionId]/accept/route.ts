import { autofillRoutes } from '@/server/autofill/autofill-routes';

// POST /api/applications/[applicationId]/autofill/suggestions/[suggestionId]/accept – write the proposed value as
// the answer; replies with the new answers_revision (409 stale or not pending, 422 outside the field's schema)
export const { POST } = autofillRoutes.suggestionAccept;
