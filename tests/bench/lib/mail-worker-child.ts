// One "app instance" of bench:mail: a delivery worker over the PostgreSQL schema named by MAIL_BENCH_DB_URL,
// sending to MAIL_BENCH_SMTP_URL. It stops as the app does on SIGTERM: the job in hand finishes, then it exits.
import { createDb } from '@/server/db';
import { workDeliveries } from '@/server/messages/deliver';
import { startJobQueue } from '@/server/messages/job-queue';
import { mailTransport } from '@/server/messages/mail-transport';

async function main() {
  const db = await createDb({ url: process.env.MAIL_BENCH_DB_URL! });
  const boss = await startJobQueue(db, 1);
  const transport = mailTransport(process.env.MAIL_BENCH_SMTP_URL!);
  await workDeliveries(boss, db, transport, () => ({ from: 'bench@example.test', messageIdHost: 'bench.example.test', retrySeconds: 1 }), 0.5);
  process.send?.('ready');
  process.once('SIGTERM', () => {
    void (async () => {
      await boss.stop({ graceful: true, wait: true, close: false, timeout: 20_000 });
      transport.close();
      await db.close();
      process.exit(0);
    })();
  });
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
