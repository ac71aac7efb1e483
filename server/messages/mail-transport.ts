import 'server-only';
import nodemailer, { type Transporter } from 'nodemailer';

/**
 * The SMTP transport deliveries go through: one pooled connection reused across messages (a connection per
 * message costs a greeting round trip each), and timeouts so a slow or silent server does not hold a worker
 * for long: the message is tried again later instead.
 */
export function mailTransport(url: string): Transporter {
  return nodemailer.createTransport({ url, pool: true, maxConnections: 1, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 });
}
