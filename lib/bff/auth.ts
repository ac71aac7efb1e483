import { z } from 'zod';
import { ACCOUNT_ROLES } from './roles';

export const SignInBody = z.strictObject({
  email: z.string().trim().min(1, 'Enter your email address').max(320),
  password: z.string().min(1, 'Enter your password').max(1024),
});
export type SignInBody = z.infer<typeof SignInBody>;

/** Who is signed in, as the browser may know it. */
export const SessionView = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('user'), role: z.enum(ACCOUNT_ROLES), name: z.string(), email: z.string() }),
  z.object({ kind: z.literal('client'), role: z.literal('client'), application_id: z.string() }),
]);
export type SessionView = z.infer<typeof SessionView>;
