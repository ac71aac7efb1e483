import { eventRoutes } from '@/server/live/event-routes';

export const dynamic = 'force-dynamic';
export const { GET } = eventRoutes.events;
