import { reminderRoutes } from '@/server/reminders/reminder-routes';

export const { GET, POST } = reminderRoutes.unsubscribe;
