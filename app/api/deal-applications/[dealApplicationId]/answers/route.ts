import { dealApplicationRoutes } from '@/server/applications/kind-routes';

// GET/PATCH /api/deal-applications/[dealApplicationId]/answers – a page of answers (page_size, cursor, section_key); PATCH saves answers (If-Match), a 412 comes back with the current answers
export const { GET, PATCH } = dealApplicationRoutes.answers;
