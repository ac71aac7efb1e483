// Next.js calls register() once when a server instance starts: the drain takes over SIGTERM, tracing starts, the database is
// opened (and migrated) so readiness can turn true, the Portal's /openapi.json is read and the workspace's
// reconciler and the mail worker start here (Node.js runtime only, never while `next build` prerenders).
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs' || process.env.NEXT_PHASE === 'phase-production-build') return;
  const { startLifecycle } = await import('./server/lifecycle/start');
  await startLifecycle();
  const { startPortalDiscovery } = await import('./server/portal/discovery');
  startPortalDiscovery();
  const { startReconcileSchedule } = await import('./server/read-model/scheduler');
  startReconcileSchedule();
  const { startMailWorker } = await import('./server/messages/mail-worker');
  void startMailWorker().catch(async (e: unknown) => {
    const { log } = await import('./server/log');
    log.error('mail worker did not start: messages stay queued', { error: e instanceof Error ? e.message : String(e) });
  });
}
