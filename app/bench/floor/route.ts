import { floorRead, floorSet, floorWrite } from '@/server/bench/floor-route';

// /bench/floor – the benchmark's bare route handler (404 unless BENCH_FLOOR_ROUTE=1 at start); outside
// /api, it is no browser-facing route: no session, no CSRF, nothing stored.
export const dynamic = 'force-dynamic';
export { floorRead as GET, floorWrite as PATCH, floorSet as PUT };
