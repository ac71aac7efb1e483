import 'server-only';
import { z } from 'zod';
import { appDb } from '@/server/db/app-db';
import { MIGRATIONS } from '@/server/db/migrations';
import { currentPhase, type Phase } from '@/server/lifecycle/phase';
import { isPortalError, portalRequest, routes } from '@/server/portal';
import { processWide } from '@/server/process-wide';

/** One check's verdict as /api/ready shows it: codes and figures only, never a message that could carry a URL or a key. */
export interface CheckResult {
  ok: boolean;
  /** Why not, as a short code (migrating, unreachable, key_refused...). */
  reason?: string;
  [detail: string]: unknown;
}

export interface Readiness {
  ready: boolean;
  phase: Phase;
  checks: Record<string, CheckResult>;
}

/** The database check's own budget: a probe answers within it even when the database hangs. */
const DB_CHECK_MS = 1_000;
/** The Portal is asked again this long after a success, and sooner after a failure. */
const PORTAL_FRESH_MS = 15_000;
const PORTAL_RETRY_MS = 3_000;
/** One Portal check's budget (it runs in the background; the probe never waits on it). */
const PORTAL_CHECK_MS = 2_000;

const LATEST_MIGRATION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

function within<T>(ms: number, work: Promise<T>): Promise<T | 'timeout'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([work, new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), ms)))]).finally(() => clearTimeout(timer));
}

/** Open (the first call migrates) and at the newest schema version; a database that went away fails the query. */
async function checkDatabase(): Promise<CheckResult> {
  const opened = await within(DB_CHECK_MS, appDb()).catch(() => 'failed' as const);
  if (opened === 'timeout') return { ok: false, reason: 'migrating' };
  if (opened === 'failed') return { ok: false, reason: 'unreachable' };
  const row = await within(DB_CHECK_MS, opened.one<{ version: number | null }>('SELECT max(version) AS version FROM schema_migrations')).catch(() => 'failed' as const);
  if (row === 'timeout') return { ok: false, reason: 'timeout' };
  if (row === 'failed') return { ok: false, reason: 'unreachable' };
  const version = row?.version ?? 0;
  return version >= LATEST_MIGRATION ? { ok: true, schema_version: version } : { ok: false, reason: 'not_migrated', schema_version: version };
}

const ApiRootReply = z.looseObject({});

interface PortalState {
  result: CheckResult | null;
  checkedAt: number;
  running: Promise<void> | null;
}

const portalState = () => processWide<PortalState>('ready-portal', () => ({ result: null, checkedAt: 0, running: null }));

/** Reads the API root with the key: reachable, and the key accepted. */
async function askPortal(): Promise<CheckResult> {
  const started = Date.now();
  try {
    await portalRequest({ path: routes.apiRoot(), schema: ApiRootReply, timeoutMs: PORTAL_CHECK_MS, background: true });
    return { ok: true, ms: Date.now() - started };
  } catch (e) {
    if (!isPortalError(e)) return { ok: false, reason: 'failed' };
    if (e.code === 'portal_unauthenticated' || (e.fromUpstream && e.status === 401)) return { ok: false, reason: 'key_refused' };
    const reason = e.fromUpstream ? `status_${e.status}` : String(e.code);
    return { ok: false, reason };
  }
}

/** Starts a Portal check when the last one is stale; never waits for it. */
export function refreshPortalCheck(): void {
  const s = portalState();
  const freshFor = s.result?.ok ? PORTAL_FRESH_MS : PORTAL_RETRY_MS;
  if (s.running || (s.result && Date.now() - s.checkedAt < freshFor)) return;
  s.running = askPortal().then((result) => {
    s.result = result;
    s.checkedAt = Date.now();
    s.running = null;
  });
}

/** The last Portal verdict, with its age: a slow Portal never slows a probe. */
function portalCheck(): CheckResult {
  refreshPortalCheck();
  const s = portalState();
  if (!s.result) return { ok: false, reason: 'checking' };
  return { ...s.result, age_ms: Date.now() - s.checkedAt };
}

type ExtraCheck = () => Promise<CheckResult>;
const extraChecks = () => processWide('ready-checks', () => new Map<string, ExtraCheck>());

/** A worker's own readiness (a job queue, a mail sender), asked on every probe within the database check's budget. */
export function addReadinessCheck(name: string, check: ExtraCheck): void {
  extraChecks().set(name, check);
}

async function runExtra(check: ExtraCheck): Promise<CheckResult> {
  const result = await within(DB_CHECK_MS, check()).catch(() => 'failed' as const);
  if (result === 'timeout') return { ok: false, reason: 'timeout' };
  if (result === 'failed') return { ok: false, reason: 'failed' };
  return result;
}

export async function readiness(): Promise<Readiness> {
  const phase = currentPhase();
  const checks: Record<string, CheckResult> = {};
  if (phase === 'draining') return { ready: false, phase, checks };
  const extras = [...extraChecks()];
  const [database, ...others] = await Promise.all([checkDatabase(), ...extras.map(([, check]) => runExtra(check))]);
  checks.database = database!;
  checks.portal = portalCheck();
  extras.forEach(([name], i) => (checks[name] = others[i]!));
  // The phase again: the database check may have been what finished the start meanwhile.
  const now = currentPhase();
  return { ready: now === 'serving' && Object.values(checks).every((c) => c.ok), phase: now, checks };
}
