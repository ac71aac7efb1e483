import { reminderRoutes } from '@/server/reminders/reminder-routes';

export const { POST } = reminderRoutes.reminderNow;
