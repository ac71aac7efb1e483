import 'server-only';

export { recordAudit, listAudit, DEFAULT_AUDIT_PAGE, MAX_AUDIT_PAGE } from './audit-log';
export type { AuditEntry, AuditPage, AuditRecord, AuditRow, JsonValue } from './audit-log';
