import 'server-only';

export { recordAuditGrouped } from './audit-batch';
export { recordAudit, recordAuditMany, listAudit, DEFAULT_AUDIT_PAGE, MAX_AUDIT_PAGE } from './audit-log';
export type { AuditEntry, AuditPage, AuditRecord, AuditRow, JsonValue } from './audit-log';
