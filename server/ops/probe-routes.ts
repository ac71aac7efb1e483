import 'server-only';
import { NextResponse } from 'next/server';
import { currentPhase } from '@/server/lifecycle/phase';
import { log } from '@/server/log';
import { readiness } from './readiness';

/*
 * The probes of a load balancer or an orchestrator. Not through the route wrapper: they need no session or
 * CSRF, must answer while the app drains or its database is gone, and must never wait on the Portal.
 */

const NO_STORE = { 'Cache-Control': 'private, no-store' };
const startedAt = Date.now();

// GET /api/health – the process is alive and answers (a liveness probe: restart it when this fails)
async function health_GET(): Promise<Response> {
  return NextResponse.json({ status: 'ok', phase: currentPhase(), uptime_s: Math.round((Date.now() - startedAt) / 1000) }, { headers: NO_STORE });
}

// GET /api/ready – it should get traffic: serving (not starting or draining), database migrated, Portal reachable with the key
async function ready_GET(): Promise<Response> {
  try {
    const r = await readiness();
    return NextResponse.json(r, { status: r.ready ? 200 : 503, headers: NO_STORE });
  } catch (e) {
    log.error('readiness check failed', { error: e });
    return NextResponse.json({ ready: false, phase: currentPhase(), checks: {} }, { status: 503, headers: NO_STORE });
  }
}

export const probeRoutes = {
  health: { GET: health_GET },
  ready: { GET: ready_GET },
};
