import type { IncomingMessage } from 'node:http';
import type { SandboxError } from './errors';

/**
 * A request body, refused with `tooLarge` as soon as it passes `limit` bytes. The rest is drained rather
 * than the socket destroyed, so the client still receives the error reply.
 */
export function readBody(req: IncomingMessage, limit: number, tooLarge: () => SandboxError): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        reject(tooLarge());
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
