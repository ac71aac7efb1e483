/** Limits of spec §8 and the paging ranges of DESIGN.md §5, shared by the sandbox, the BFF and the forms. */
export const LIMITS = {
  answerStringMax: 10_000,
  answerArrayMaxItems: 100,
  answerArrayStringMax: 1_000,
  blockKey: { min: 1, max: 64 },
  fieldKey: { min: 1, max: 512 },
  schemaKey: { min: 1, max: 512 },
  sectionKey: { min: 1, max: 255 },
  allowedValueMax: 255,
  valueType: { min: 1, max: 36 },
  percent: { min: 0, max: 100 },
  paging: { min: 1, max: 100, default: 25 },
  answersPaging: { min: 1, max: 500, default: 100 },
} as const;

/**
 * File types and size the Portal takes for answer files and Autofill evidence (the spec leaves file limits
 * "not shown"; the sandbox enforces these, and the BFF checks them first to spare the user a failed upload).
 */
export const UPLOAD_CONTENT_TYPES = [
  'application/pdf',
  'image/png',
  'image/jpeg',
  'text/plain',
  'text/csv',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.ms-excel',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
] as const;
export const UPLOAD_MAX_BYTES = 25 * 1024 * 1024;
