import { projectCriteriaRoutes } from '@/server/applications/kind-routes';

// GET/PATCH /api/projects/[projectId]/criteria/answers – a page of criteria answers; PATCH saves them (If-Match), a 412 comes back with the current answers
export const { GET, PATCH } = projectCriteriaRoutes.answers;
