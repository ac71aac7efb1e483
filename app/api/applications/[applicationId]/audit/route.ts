import { auditRoutes } from '@/server/audit/audit-routes';

export const { GET } = auditRoutes.audit;
