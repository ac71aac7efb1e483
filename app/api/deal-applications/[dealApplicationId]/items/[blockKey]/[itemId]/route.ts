import { dealApplicationRoutes } from '@/server/applications/kind-routes';

// PATCH/DELETE /api/deal-applications/[dealApplicationId]/items/[blockKey]/[itemId] – save an item's answers or remove it and its nested items (If-Match); a 412 comes back with the group's items
export const { PATCH, DELETE } = dealApplicationRoutes.item;
