// The mail side of a chaos run: an SMTP server that fails the ways real ones do, and the count of what the
// app's outbox queued against what arrived. Faults: 421 at the greeting (service not available), a connection
// dropped at MAIL FROM (before any message is sent), 451 to the message (try again later), and a slow server
// that takes seconds to accept. Each is a refusal the sender can know nothing was taken by, so each must end in
// a later delivery, never in a lost or doubled message.
import { simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import { mulberry32 } from '@/server/sandbox/controls/faults';
import type { Db } from '@/server/db/types';
import { listenOnLoopback } from '../../support/smtp-sink';

export interface MailFaults {
  rate_421: number;
  rate_drop: number;
  rate_451: number;
  rate_slow: number;
  slow_ms: number;
  /** The first this many connections are refused with 421 whatever the rates say, so every run meets a fault. */
  refuse_first: number;
}

export const CHAOS_MAIL_FAULTS: MailFaults = { rate_421: 0.1, rate_drop: 0.1, rate_451: 0.1, rate_slow: 0.1, slow_ms: 3_000, refuse_first: 1 };

export interface FaultySmtp {
  url: string;
  /** How often each Message-ID arrived. */
  readonly arrivals: ReadonlyMap<string, number>;
  readonly faults: Record<string, number>;
  /** Faults on or off (off once the run's main phase is over, as the Portal's are). */
  setFaulty(on: boolean): void;
  close(): Promise<void>;
}

export async function startFaultySmtp(seed: number, rates: MailFaults): Promise<FaultySmtp> {
  const random = mulberry32(seed * 17 + 3);
  const arrivals = new Map<string, number>();
  const faults: Record<string, number> = { smtp_421: 0, smtp_dropped: 0, smtp_451: 0, smtp_slow: 0 };
  let faulty = true;
  const strikes = (rate: number) => faulty && random() < rate;
  const connectionOf = (session: SMTPServerSession) =>
    [...(server as unknown as { connections: Set<{ id: string; _socket: { destroy(): void } }> }).connections].find((c) => c.id === session.id);
  const server: SMTPServer = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onConnect(_session, callback) {
      const refusedFirst = faulty && faults.smtp_421! < rates.refuse_first;
      if (!refusedFirst && !strikes(rates.rate_421)) return callback();
      faults.smtp_421! += 1;
      callback(Object.assign(new Error('Service not available, try again later'), { responseCode: 421 }));
    },
    onMailFrom(_address, session, callback) {
      if (!strikes(rates.rate_drop)) return callback();
      faults.smtp_dropped! += 1;
      connectionOf(session)?._socket.destroy();
    },
    onData(stream, _session, callback) {
      const refuse = strikes(rates.rate_451);
      const slow = !refuse && strikes(rates.rate_slow);
      simpleParser(stream).then(
        async (mail) => {
          if (refuse) {
            faults.smtp_451! += 1;
            return callback(Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 }));
          }
          if (slow) {
            faults.smtp_slow! += 1;
            await new Promise((r) => setTimeout(r, rates.slow_ms));
          }
          const id = mail.messageId ?? '';
          arrivals.set(id, (arrivals.get(id) ?? 0) + 1);
          callback();
        },
        (e: Error) => callback(e),
      );
    },
  });
  return {
    url: await listenOnLoopback(server),
    arrivals,
    faults,
    setFaulty: (on) => {
      faulty = on;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface MailCount {
  queued: number;
  delivered: number;
  /** Delivered more than once (the same Message-ID arrived again). */
  duplicated: number;
  /** Ended `failed` in the outbox, with the reason shown to staff. */
  failed_shown: number;
  /** Neither delivered nor shown as failed: queued still, or called sent without arriving. */
  lost: number;
}

/**
 * Waits until every message to `recipients` has ended (sent or failed) or the deadline passes, then counts them
 * against what the SMTP server received.
 */
export async function countMail(db: Db, smtp: FaultySmtp, recipients: readonly string[], deadlineMs: number): Promise<MailCount> {
  const rows = () => db.query<{ id: string; status: string }>('SELECT id, status FROM outbox WHERE recipient = ANY($1::text[])', [recipients as string[]]);
  const deadline = Date.now() + deadlineMs;
  let current = await rows();
  while (current.some((r) => r.status === 'queued' || r.status === 'sending') && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 250));
    current = await rows();
  }
  const arrivedOf = (id: string) => [...smtp.arrivals].filter(([messageId]) => messageId.startsWith(`<${id}@`)).reduce((n, [, k]) => n + k, 0);
  let delivered = 0;
  let duplicated = 0;
  let failed = 0;
  let lost = 0;
  for (const r of current) {
    const arrived = arrivedOf(r.id);
    if (arrived > 0) delivered += 1;
    duplicated += Math.max(0, arrived - 1);
    if (r.status === 'failed' && arrived === 0) failed += 1;
    else if (arrived === 0) lost += 1;
  }
  return { queued: current.length, delivered, duplicated, failed_shown: failed, lost };
}
