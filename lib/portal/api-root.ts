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

/** API root (spec 4.1, completed by DESIGN.md §5). */
export const ApiRoot = z.strictObject({
  object: z.literal('api_root'),
  portal: z.strictObject({ id: z.string(), name: z.string() }),
  environment: Environment,
  key: z.strictObject({
    id: z.string(),
    kind: z.enum(['portal', 'source']),
    permissions: z.array(Permission),
    channel_slugs: z.array(z.string()),
  }),
});
export type ApiRoot = z.infer<typeof ApiRoot>;
