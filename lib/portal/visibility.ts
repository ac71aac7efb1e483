import { z } from 'zod';

const VISIBILITY_OPERATORS = ['equals', 'not_equals', 'includes', 'answered', 'not_answered'] as const;

export const VisibilityCondition = z.strictObject({
  schema_key: z.string().min(1),
  field_key: z.string().min(1),
  operator: z.enum(VISIBILITY_OPERATORS),
  value: z.unknown().optional(),
});
export type VisibilityCondition = z.infer<typeof VisibilityCondition>;

const AlwaysVisible = z.strictObject({ rule: z.literal('always') });
export const ConditionalVisibility = z.strictObject({
  rule: z.literal('conditional'),
  match: z.enum(['all', 'any']),
  conditions: z.array(VisibilityCondition).min(1),
});

/** Visibility (DESIGN.md §5). The spec types it only as an object, so an unknown rule still parses. */
export const Visibility = z.union([
  AlwaysVisible,
  ConditionalVisibility,
  z.looseObject({ rule: z.string() }),
]);
export type Visibility = z.infer<typeof Visibility>;
