import 'server-only';
import { timingSafeEqual } from 'node:crypto';
import { NextResponse, type NextRequest } from 'next/server';
import { getEnv } from '@/server/env/get-env';
import { metrics } from './metrics';

const NO_STORE = { 'Cache-Control': 'private, no-store' };

const matches = (given: string, token: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
};

const refusal = (status: 401 | 404, code: 'unauthenticated' | 'not_found', message: string, headers: Record<string, string> = {}) =>
  NextResponse.json({ error: { code, message, request_id: null, details: [] } }, { status, headers: { ...NO_STORE, ...headers } });

// GET /api/metrics – Prometheus text format, for a scraper holding METRICS_TOKEN; without the setting the route does not exist (404)
async function metrics_GET(req: NextRequest): Promise<Response> {
  const token = getEnv().metricsToken;
  const m = metrics();
  if (!token || !m) return refusal(404, 'not_found', 'There is no API route at this address.');
  const given = /^Bearer (.+)$/i.exec(req.headers.get('authorization') ?? '')?.[1] ?? '';
  if (!matches(given, token)) return refusal(401, 'unauthenticated', 'Send the metrics token as a Bearer token.', { 'WWW-Authenticate': 'Bearer realm="metrics"' });
  return new NextResponse(await m.registry.metrics(), { headers: { ...NO_STORE, 'Content-Type': m.registry.contentType } });
}

export const metricsRoutes = { metrics: { GET: metrics_GET } };
