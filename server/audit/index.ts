import 'server-only';

export { listAudit, recordAuditGrouped } from './audit-batch';
export { recordRequestAudit, type AuditObject } from './request-audit';
export { recordAudit, recordAuditMany, DEFAULT_AUDIT_PAGE, MAX_AUDIT_PAGE } from './audit-log';
export type { AuditEntry, AuditPage, AuditRecord, AuditRow, JsonValue } from './audit-log';
