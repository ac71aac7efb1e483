// Benchmark of the funder package (DESIGN.md §10) through the BFF: the PDF of the demo application and of the
// large (1,214-field) one, the ZIP of 50 MB of documents streamed, and the CSV of every business.
// Run: npm run bench:package
//
//   BENCH_BUSINESSES (10000)  businesses in the Portal for the CSV (generated, then one full reconcile)
//   BENCH_ZIP_MB (50)         megabytes of documents in the ZIP (5 MB files)
//   TEST_DATABASE_URL         PostgreSQL for the BFF's database; the embedded one (PGlite) otherwise
//
// Memory "added" is the BFF process's resident set sampled every 10 ms while the requests run, minus the
// resident set just before them. Prints a table, then one line of JSON with every figure and `met`.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { ReconcileStatusView } from '@/lib/bff/workspace';
import { buildIfStale } from '@/server/launcher/build';
import { DEMO_KEYS } from '@/server/sandbox/keys';
import { percentile } from '../support/percentile';
import { spawnSandbox } from './lib/spawn-sandbox';
import { startBff } from './lib/start-bff';

const BUSINESSES = Number(process.env.BENCH_BUSINESSES ?? 10_000);
const ZIP_MB = Number(process.env.BENCH_ZIP_MB ?? 50);
const apiKey = DEMO_KEYS.find((k) => k.id === 'key_demofull')!.token;
const TARGETS = { demoPdfP50Ms: 300, largePdfP50Ms: 2_000, largePdfMemoryMb: 150, zipMemoryMb: 50, csvMs: 1_000 };
const MB = 1024 * 1024;

const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;

/** Runs `work` while sampling the process's resident set: the most it grew above where it started. */
async function peakAdded<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; addedBytes: number }> {
  const base = rssOf(pid);
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 10);
  try {
    const result = await work();
    peak = Math.max(peak, rssOf(pid));
    return { result, addedBytes: peak - base };
  } finally {
    clearInterval(timer);
  }
}

/** Downloads a route's reply to the end, counting bytes and keeping none; the time to the last byte. */
async function timedDownload(url: string, headers: Record<string, string>) {
  const t0 = performance.now();
  const res = await fetch(url, { headers });
  if (res.status !== 200) throw new Error(`${url} → ${res.status}: ${await res.text()}`);
  let bytes = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.byteLength;
  return { ms: performance.now() - t0, bytes };
}

async function series(n: number, warmup: number, run: () => Promise<{ ms: number; bytes: number }>) {
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < warmup + n; i++) {
    const r = await run();
    if (i >= warmup) times.push(r.ms);
    bytes = r.bytes;
  }
  return { p50: percentile(times, 50), p95: percentile(times, 95), bytes };
}

async function main() {
  buildIfStale();
  const sandbox = await spawnSandbox({ SANDBOX_CONTROLS: '1', SANDBOX_SEED: 'demo' });
  const origin = new URL(sandbox.baseUrl).origin;
  const bff = await startBff({
    portalBaseUrl: sandbox.baseUrl,
    portalApiKey: apiKey,
    postgresUrl: process.env.TEST_DATABASE_URL ?? null,
    env: { WORKSPACE_RECONCILE_MINUTES: '0', LOG_LEVEL: 'warn' },
  });
  const headers = { Cookie: bff.cookie };
  const portal = (path: string, init: RequestInit = {}) =>
    fetch(`${sandbox.baseUrl}${path}`, { ...init, headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json', ...(init.headers ?? {}) } });
  try {
    const pid = bff.pid!;
    const demo = await series(20, 5, () => timedDownload(`${bff.url}/api/applications/ciappl_meridian/pdf`, headers));
    const large = await peakAdded(pid, () => series(8, 2, () => timedDownload(`${bff.url}/api/applications/ciappl_atlaslogistics/pdf`, headers)));

    // A fresh application with ZIP_MB of documents (5 MB each, random so nothing compresses).
    const created = await portal('businesses/', { method: 'POST', headers: { 'Idempotency-Key': `bench-${randomBytes(6).toString('hex')}` }, body: JSON.stringify({ name: 'Bench Package Ltd' }) });
    const appId = ((await created.json()) as { application: { id: string } }).application.id;
    const files = Math.ceil(ZIP_MB / 5);
    for (let i = 0; i < files; i++) {
      const target = i < 10 ? { block_key: 'bank_statements', schema_key: 'bank_statements', field_key: 'files' } : { block_key: 'annual_accounts', schema_key: 'annual_accounts', field_key: 'files' };
      const credential = (await (await portal(`client-intake-applications/${appId}/file-uploads/`, { method: 'POST', body: JSON.stringify(target) })).json()) as { upload_url: string };
      const body = randomBytes(5 * MB);
      body.write('%PDF-1.4\n', 0, 'latin1');
      const put = await fetch(credential.upload_url, { method: 'PUT', headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': `attachment; filename="statement-${i + 1}.pdf"` }, body });
      if (put.status !== 201) throw new Error(`upload ${i + 1} → ${put.status}: ${await put.text()}`);
    }
    const zip = await peakAdded(pid, () => timedDownload(`${bff.url}/api/applications/${appId}/package`, headers));

    // The CSV of every business: generated in the Portal, one full reconcile, then the export timed.
    const seeded = (await (await portal('businesses/?page_size=100')).json()) as { items: unknown[] };
    const generate = Math.max(0, BUSINESSES - seeded.items.length);
    if (generate > 0) {
      const made = await fetch(`${origin}/_sandbox/businesses`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ generate, seed: 23 }) });
      if (made.status !== 201) throw new Error(`generate → ${made.status}: ${await made.text()}`);
    }
    const asked = await fetch(`${bff.url}/api/workspace/reconcile`, { method: 'POST', headers: { ...headers, 'X-CSRF': '1', Origin: bff.url } });
    if (asked.status !== 202) throw new Error(`reconcile → ${asked.status}: ${await asked.text()}`);
    for (;;) {
      await new Promise((r) => setTimeout(r, 500));
      const status = ReconcileStatusView.parse(await (await fetch(`${bff.url}/api/workspace/reconcile`, { headers })).json());
      if (!status.freshness.reconciling && status.last_pass.completed_at) break;
      if (status.freshness.last_error) throw new Error(`the pass failed: ${status.freshness.last_error}`);
    }
    const csv = await series(5, 1, () => timedDownload(`${bff.url}/api/workspace/businesses/csv?sort=name&dir=asc`, headers));

    const met = {
      demoPdf: demo.p50 <= TARGETS.demoPdfP50Ms,
      largePdf: large.result.p50 <= TARGETS.largePdfP50Ms,
      largePdfMemory: large.addedBytes / MB <= TARGETS.largePdfMemoryMb,
      zipMemory: zip.addedBytes / MB <= TARGETS.zipMemoryMb,
      csv: csv.p50 <= TARGETS.csvMs,
    };
    const fmt = (n: number) => n.toFixed(1);
    const tick = (ok: boolean) => (ok ? '✓' : '✗');
    console.log(`\nFunder package — BFF database: ${bff.database}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'})\n`);
    console.log('| Measure | Value | Target |');
    console.log('|---|---|---|');
    console.log(`| PDF of the demo application, p50 (p95) | ${fmt(demo.p50)} ms (${fmt(demo.p95)} ms), ${(demo.bytes / 1024).toFixed(0)} KiB | ≤ ${TARGETS.demoPdfP50Ms} ms ${tick(met.demoPdf)} |`);
    console.log(`| PDF of the 1,214-field application, p50 (p95) | ${fmt(large.result.p50)} ms (${fmt(large.result.p95)} ms), ${(large.result.bytes / 1024).toFixed(0)} KiB | ≤ ${TARGETS.largePdfP50Ms} ms ${tick(met.largePdf)} |`);
    console.log(`| Memory added while making it | ${fmt(large.addedBytes / MB)} MB | ≤ ${TARGETS.largePdfMemoryMb} MB ${tick(met.largePdfMemory)} |`);
    console.log(`| ZIP of ${files} documents (${fmt(zip.result.bytes / MB)} MB), streamed | ${fmt(zip.result.ms)} ms | |`);
    console.log(`| Memory added while streaming it | ${fmt(zip.addedBytes / MB)} MB | ≤ ${TARGETS.zipMemoryMb} MB ${tick(met.zipMemory)} |`);
    console.log(`| CSV of ${BUSINESSES} businesses, p50 | ${fmt(csv.p50)} ms, ${fmt(csv.bytes / MB)} MB | ≤ ${TARGETS.csvMs} ms ${tick(met.csv)} |`);
    console.log(
      JSON.stringify({
        bench: 'package',
        database: bff.database,
        demo_pdf_p50_ms: Number(fmt(demo.p50)),
        large_pdf_p50_ms: Number(fmt(large.result.p50)),
        large_pdf_memory_added_mb: Number(fmt(large.addedBytes / MB)),
        zip_mb: Number(fmt(zip.result.bytes / MB)),
        zip_ms: Math.round(zip.result.ms),
        zip_memory_added_mb: Number(fmt(zip.addedBytes / MB)),
        businesses: BUSINESSES,
        csv_p50_ms: Number(fmt(csv.p50)),
        targets: TARGETS,
        met,
      }),
    );
  } finally {
    await bff.stop();
    await sandbox.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
