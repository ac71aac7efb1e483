import 'server-only';

// The benchmark's floor (`npm run bench:bff`): what a bare route handler in this same Next server costs,
// with no session, database or upstream, answering the bytes the real routes answer. Read once at start:
// off (404, as if absent) unless the server was started with BENCH_FLOOR_ROUTE=1.
const enabled = process.env.BENCH_FLOOR_ROUTE === '1';

const HEADERS = { 'Content-Type': 'application/json', 'Cache-Control': 'private, no-store' };
/** The bytes each method answers, set by the bench (PUT ?as=read|write) from the real routes' replies. */
const replies: Record<'read' | 'write', string> = { read: '{}', write: '{}' };

const notFound = () => new Response(null, { status: 404 });

/** GET answers the stored read reply. */
export async function floorRead(): Promise<Response> {
  if (!enabled) return notFound();
  return new Response(replies.read, { headers: HEADERS });
}

/** PATCH reads its body, as a write route must, and answers the stored write reply. */
export async function floorWrite(req: Request): Promise<Response> {
  if (!enabled) return notFound();
  await req.text();
  return new Response(replies.write, { headers: HEADERS });
}

/** PUT ?as=read|write stores the body as that reply. */
export async function floorSet(req: Request): Promise<Response> {
  if (!enabled) return notFound();
  const as = new URL(req.url).searchParams.get('as');
  if (as !== 'read' && as !== 'write') return new Response(null, { status: 400 });
  replies[as] = await req.text();
  return new Response(null, { status: 204 });
}
