import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';

export interface LocalSmtp {
  url: string;
  /** Where each message that arrives is written, one .eml file per message. */
  dir: string;
  stop(): Promise<void>;
}

/**
 * The demo's mail server: a real SMTP server on a loopback port that accepts every message and keeps it as a
 * .eml file, so `npm start` sends real mail end to end without an account anywhere. Plain SMTP on loopback
 * only (no STARTTLS offered: it would need a certificate the app could not check).
 */
export function startLocalSmtp(dataDir: string, host = '127.0.0.1'): Promise<LocalSmtp> {
  const dir = join(dataDir, 'mail');
  mkdirSync(dir, { recursive: true });
  let count = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    banner: 'Intake demo mail server (keeps every message, delivers none)',
    size: 10 * 1024 * 1024,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        count += 1;
        const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${count}.eml`;
        try {
          writeFileSync(join(dir, name), Buffer.concat(chunks));
          callback();
        } catch (e) {
          // A 4xx: the app keeps the message queued and tries again.
          callback(Object.assign(new Error(`could not store the message: ${(e as Error).message}`), { responseCode: 451 }));
        }
      });
    },
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.server.address();
      if (!address || typeof address === 'string') return reject(new Error('the local SMTP server has no port'));
      resolve({ url: `smtp://${host.includes(":") ? `[${host}]` : host}:${address.port}`, dir, stop: () => new Promise<void>((done) => server.close(() => done())) });
    });
  });
}
