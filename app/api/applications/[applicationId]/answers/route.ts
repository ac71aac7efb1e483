import { intakeApplicationRoutes } from '@/server/applications/kind-routes';

// GET/PATCH /api/applications/[applicationId]/answers – a page of answers (page_size, cursor, section_key); PATCH saves answers (If-Match), a 412 comes back with the current answers
export const { GET, PATCH } = intakeApplicationRoutes.answers;
