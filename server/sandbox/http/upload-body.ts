import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { ErrorDetail } from '@/lib/portal';
import { readBody } from './body';
import { SandboxError } from './errors';

/** Constant-time comparison of secrets (API keys, upload tokens). */
export function sameSecret(a: string, b: string) {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** 25 MiB, 512 KiB, 1024 bytes: an upload limit as a person reads it. */
export function sizeLabel(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / 1024 / 1024} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/**
 * The bytes of an upload, refused with 422 `file_too_large` as soon as they pass `limit`. `at` names the
 * question in the error detail.
 */
export function readUploadBody(req: IncomingMessage, limit: number, at: Partial<ErrorDetail> = {}): Promise<Buffer> {
  return readBody(
    req,
    limit,
    () =>
      new SandboxError('validation_failed', `The file is larger than the ${sizeLabel(limit)} limit.`, [
        { code: 'file_too_large', message: `At most ${limit} bytes.`, ...at },
      ]),
  );
}
