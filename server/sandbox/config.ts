import { z } from 'zod';
import { webhookSecretKey } from './webhooks/sign';
import { DEFAULT_OPTIONS, type SandboxOptions } from './options';

const RateLimit = z
  .string()
  .regex(/^(off|\d+(\/\d+)?)$/, 'use "off", "<per second>" or "<per second>/<burst>"')
  .transform((v) => {
    if (v === 'off') return null;
    const [perSecond, burst] = v.split('/').map(Number) as [number, number | undefined];
    return { perSecond, burst: burst ?? perSecond * 2 };
  });

const WebhookSecret = z
  .string()
  .regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/, { error: 'use "whsec_" followed by base64 key bytes', abort: true })
  .refine((v) => {
    try {
      const n = webhookSecretKey(v).length;
      return n >= 24 && n <= 64;
    } catch {
      return false;
    }
  }, 'the key must be valid base64 of 24 to 64 bytes');

/** The sandbox's environment variables (README, "Configuration"). */
const SandboxEnv = z.object({
  SANDBOX_HOST: z.string().min(1).default(DEFAULT_OPTIONS.host),
  SANDBOX_PORT: z.coerce.number().int().min(0).max(65535).default(DEFAULT_OPTIONS.port),
  SANDBOX_SEED: z.enum(['demo', 'empty']).default('demo'),
  SANDBOX_DATA_FILE: z.string().min(1).optional(),
  SANDBOX_ENVIRONMENT: z.enum(['test', 'live']).default('test'),
  SANDBOX_RATE_LIMIT: RateLimit.optional(),
  SANDBOX_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  SANDBOX_PUBLIC_ORIGIN: z.url().optional(),
  SANDBOX_LOG: z.enum(['0', '1']).optional(),
  SANDBOX_WEBHOOK_URL: z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }).optional(),
  SANDBOX_WEBHOOK_SECRET: WebhookSecret.optional(),
  SANDBOX_CONTROLS: z.enum(['0', '1']).optional(),
  SANDBOX_PROFILE: z.enum(['full', 'strict']).default('full'),
});

/** Options from the environment; a malformed variable stops start-up with a message naming it. */
export function optionsFromEnv(env: NodeJS.ProcessEnv): SandboxOptions {
  const parsed = SandboxEnv.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid sandbox configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return {
    ...DEFAULT_OPTIONS,
    host: e.SANDBOX_HOST,
    port: e.SANDBOX_PORT,
    seed: e.SANDBOX_SEED,
    dataFile: e.SANDBOX_DATA_FILE ?? null,
    environment: e.SANDBOX_ENVIRONMENT,
    rateLimit: e.SANDBOX_RATE_LIMIT === undefined ? DEFAULT_OPTIONS.rateLimit : e.SANDBOX_RATE_LIMIT,
    secret: e.SANDBOX_SECRET ?? DEFAULT_OPTIONS.secret,
    publicOrigin: e.SANDBOX_PUBLIC_ORIGIN?.replace(/\/$/, '') ?? null,
    log: e.SANDBOX_LOG === '1',
    webhookUrl: e.SANDBOX_WEBHOOK_URL ?? null,
    webhookSecret: e.SANDBOX_WEBHOOK_SECRET ?? DEFAULT_OPTIONS.webhookSecret,
    controls: e.SANDBOX_CONTROLS === '1',
    profile: e.SANDBOX_PROFILE,
  };
}
