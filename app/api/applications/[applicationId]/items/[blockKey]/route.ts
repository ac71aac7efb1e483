import { intakeApplicationRoutes } from '@/server/applications/kind-routes';

// GET/POST /api/applications/[applicationId]/items/[blockKey] – a page of a repeatable group's items; POST adds one (If-Match optional), a 412 comes back with the group's items
export const { GET, POST } = intakeApplicationRoutes.itemGroup;
