import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { ErrorDetail } from '@/lib/portal';
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
 * The bytes of an upload, refused with 422 `file_too_large` as soon as they pass `limit` (the rest of the
 * body is drained so the reply still reaches the client). `at` names the question in the error detail.
 */
export function readUploadBody(req: IncomingMessage, limit: number, at: Partial<ErrorDetail> = {}): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        reject(new SandboxError('validation_failed', `The file is larger than the ${sizeLabel(limit)} limit.`, [
          { code: 'file_too_large', message: `At most ${limit} bytes.`, ...at },
        ]));
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
