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
