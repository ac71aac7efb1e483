import { reminderRoutes } from '@/server/reminders/reminder-routes';

export const { GET, PUT } = reminderRoutes.reminders;
