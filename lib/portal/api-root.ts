import { z } from 'zod';

export const PERMISSIONS = [
  'businesses:read',
  'businesses:write',
  'leads:submit',
  'applications:read',
  'applications:write',
  'autofill:write',
  'deals:read',
  'deals:write',
  'people:read',
  'projects:read',
  'projects:write',
] as const;
export const Permission = z.enum(PERMISSIONS);
export type Permission = z.infer<typeof Permission>;

export const Environment = z.enum(['test', 'live']);
export type Environment = z.infer<typeof Environment>;

/**
 * API root (spec 4.1: the owning Portal, the key's access targets and its permissions; DESIGN.md §5 completes
 * the rest). The spec shows none of its fields, so only what the BFF cannot do without is required: the
 * environment and the key's id and kind may be missing, other properties may be present, and a permission
 * name the BFF does not know is kept (and ignored).
 */
export const ApiRoot = z.looseObject({
  object: z.literal('api_root').optional(),
  portal: z.looseObject({ id: z.string().optional(), name: z.string() }),
  environment: Environment.optional(),
  key: z.looseObject({
    id: z.string().optional(),
    kind: z.enum(['portal', 'source']).optional(),
    permissions: z.array(z.string()),
    channel_slugs: z.array(z.string()).default([]),
  }),
});
export type ApiRoot = z.infer<typeof ApiRoot>;
