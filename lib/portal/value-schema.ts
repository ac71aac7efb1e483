import { z } from 'zod';

/**
 * value_schema: the JSON Schema subset of DESIGN.md §5. Loose, because the spec leaves its inner
 * fields "not shown": keywords outside the subset are kept and ignored (the upstream stays the final authority).
 */
const VALUE_TYPES = ['string', 'integer', 'number', 'boolean', 'array', 'null'] as const;
const ValueSchemaType = z.enum(VALUE_TYPES);

const scalarKeywords = {
  enum: z.array(z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
  format: z.string().optional(),
  minLength: z.int().min(0).optional(),
  maxLength: z.int().min(0).optional(),
  pattern: z.string().optional(),
  minimum: z.number().optional(),
  maximum: z.number().optional(),
  multipleOf: z.number().positive().optional(),
};

const ItemValueSchema = z.looseObject({
  type: z.union([ValueSchemaType, z.array(ValueSchemaType)]).optional(),
  ...scalarKeywords,
});

export const ValueSchema = z.looseObject({
  type: z.union([ValueSchemaType, z.array(ValueSchemaType)]).optional(),
  ...scalarKeywords,
  items: ItemValueSchema.optional(),
  minItems: z.int().min(0).optional(),
  maxItems: z.int().min(0).optional(),
});
export type ValueSchema = z.infer<typeof ValueSchema>;
