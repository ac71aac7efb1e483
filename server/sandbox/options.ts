import { UPLOAD_CONTENT_TYPES, UPLOAD_MAX_BYTES, type Environment } from '@/lib/portal';
import { DEMO_KEYS, type ApiKeyDef } from './keys';

export type SandboxProfile = 'full' | 'strict';

export interface SandboxOptions {
  /**
   * 'full' implements the spec with DESIGN.md's completions; 'strict' serves only what the spec guarantees
   * (profiles/strict.ts), to test that the BFF needs no more.
   */
  profile: SandboxProfile;
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** Which keys authenticate: a test sandbox refuses live keys and the other way round. */
  environment: Environment;
  /** 'demo' loads the demo Portal; 'empty' keeps its contracts and pipelines but no businesses. */
  seed: 'demo' | 'empty';
  /** Where state is kept across restarts; null keeps it in memory only. */
  dataFile: string | null;
  keys: ApiKeyDef[];
  /** Token bucket per key; null turns throttling off (benchmarks). */
  rateLimit: { perSecond: number; burst: number } | null;
  /** Signs cursors and transfer URLs. */
  secret: string;
  uploadTtlSeconds: number;
  maxUploadBytes: number;
  /** Origin written into returned URLs; defaults to the address the server listens on. */
  publicOrigin: string | null;
  /** One access-log line a request on stdout (method, path, status, duration, Request-Id; never headers). */
  log: boolean;
  /** Where events are POSTed (Standard Webhooks); null sends none. */
  webhookUrl: string | null;
  /** Signs deliveries: `whsec_` followed by the base64 key bytes. */
  webhookSecret: string;
  /** Attempts per delivery, the first included (retries after 1 s, 2 s, 4 s … of sandbox clock time). */
  webhookMaxAttempts: number;
  /** Real time one attempt may take before it counts as failed. */
  webhookTimeoutMs: number;
  /** The test controls under /_sandbox/ (faults, clock, reset, webhook deliveries); off: every /_sandbox/ path is 404. */
  controls: boolean;
}

export const DEFAULT_OPTIONS: SandboxOptions = {
  profile: 'full',
  host: '127.0.0.1',
  port: 4010,
  environment: 'test',
  seed: 'demo',
  dataFile: null,
  keys: DEMO_KEYS,
  rateLimit: { perSecond: 100, burst: 200 },
  secret: 'sandbox-dev-secret-change-me',
  uploadTtlSeconds: 15 * 60,
  maxUploadBytes: UPLOAD_MAX_BYTES,
  publicOrigin: null,
  log: false,
  webhookUrl: null,
  // base64 of "sandbox-dev-webhook-secret-change-me" (36 bytes): a development value only.
  webhookSecret: 'whsec_c2FuZGJveC1kZXYtd2ViaG9vay1zZWNyZXQtY2hhbmdlLW1l',
  webhookMaxAttempts: 8,
  webhookTimeoutMs: 10_000,
  controls: false,
};

export const ALLOWED_UPLOAD_TYPES: ReadonlySet<string> = new Set(UPLOAD_CONTENT_TYPES);
