import { projectCriteriaRoutes } from '@/server/applications/kind-routes';

// GET /api/projects/[projectId]/criteria – the criteria: revision (what a match run quotes), answers_revision, prefilled answers
export const { GET } = projectCriteriaRoutes.application;
