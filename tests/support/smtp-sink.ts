import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** What the sink answers to a message: take it, take it after a wait, refuse it for now (4xx) or for good (5xx). */
export type SinkMode = { kind: 'accept' } | { kind: 'slow'; ms: number } | { kind: 'refuse'; code: number; text: string };

export interface SmtpSink {
  url: string;
  /** Every message taken, parsed, in the order they arrived. */
  readonly received: ParsedMail[];
  /** How many messages were refused so far. */
  readonly refusals: number;
  setMode(mode: SinkMode): void;
  close(): Promise<void>;
}

/** Starts `server` on a free loopback port; its smtp:// URL. */
export async function listenOnLoopback(server: SMTPServer): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.server.address();
  if (!address || typeof address === 'string') throw new Error('the SMTP server has no port');
  return `smtp://127.0.0.1:${address.port}`;
}

/** A real SMTP server on a loopback port (plain SMTP, no auth) that parses what it takes with mailparser. */
export async function startSmtpSink(): Promise<SmtpSink> {
  const received: ParsedMail[] = [];
  let refusals = 0;
  let mode: SinkMode = { kind: 'accept' };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      const current = mode;
      simpleParser(stream).then(
        (mail) => {
          if (current.kind === 'refuse') {
            refusals += 1;
            return callback(Object.assign(new Error(current.text), { responseCode: current.code }));
          }
          const take = () => {
            received.push(mail);
            callback();
          };
          if (current.kind === 'slow') setTimeout(take, current.ms);
          else take();
        },
        (e: Error) => callback(e),
      );
    },
  });
  return {
    url: await listenOnLoopback(server),
    received,
    get refusals() {
      return refusals;
    },
    setMode(m) {
      mode = m;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The text of a header address field (To, From) as one string. */
export const addressText = (field: ParsedMail['to']) => (Array.isArray(field) ? field.map((a) => a.text).join(', ') : (field?.text ?? ''));
