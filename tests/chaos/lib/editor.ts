// A simulated person editing an application through the app's HTTP routes, the way the form does: answers sent
// with If-Match and answers_revision; a 412 brings the answers as they are now, which are taken and the edit
// applied again; a failure (429, 5xx, a dropped connection, an instance away) is shown and retried after a pause.
import { AnswersWriteResult, CurrentAnswers } from '@/lib/bff/applications';
import type { Balancer } from './stack';
export { signIn } from '../../support/http-sign-in';

/** An edit the app said was saved, with its place in the application's order of writes. */
export interface Ack {
  editor: string;
  field: string;
  value: string;
  /** answers_revision of the write; for a browser (which keeps its fields to itself) the order of its saves. */
  order: number;
}

export interface EditorStats {
  sent: number;
  acknowledged: number;
  conflicts: number;
  /** Failed saves a person would have seen (then retried). */
  errorsShown: number;
  latenciesMs: number[];
}

export const newStats = (): EditorStats => ({ sent: 0, acknowledged: 0, conflicts: 0, errorsShown: 0, latenciesMs: [] });

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));


/** Whether a failure is one a person is shown and may retry: throttling, server errors, no answer at all. */
const retryable = (status: number) => status === 429 || status >= 500;

export class Editor {
  private etag = '';
  private revision = 0;
  readonly acks: Ack[] = [];
  readonly stats = newStats();

  constructor(
    readonly name: string,
    private readonly cookie: string,
    private readonly balancer: Balancer,
    private readonly applicationId: string,
    /** How long one edit may keep failing before the run gives up on it (and fails). */
    private readonly deadlineMs = 120_000,
  ) {}

  private async call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const app = this.balancer.pick();
    const res = await fetch(`${app.url}${path}`, {
      method,
      headers: { Accept: 'application/json', Cookie: this.cookie, 'X-CSRF': '1', Origin: app.url, ...(body ? { 'Content-Type': 'application/json' } : {}), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, json: (text ? JSON.parse(text) : null) as unknown, text };
  }

  /** Reads the answer set's revision and ETag, as the form does when it opens. */
  async open() {
    const deadline = Date.now() + this.deadlineMs;
    for (;;) {
      const r = await this.call('GET', `/api/applications/${this.applicationId}/answers?page_size=500`).catch(() => null);
      if (r?.status === 200) {
        const page = r.json as { answers_revision: number; etag: string };
        this.revision = page.answers_revision;
        this.etag = page.etag;
        return;
      }
      if (Date.now() > deadline) throw new Error(`${this.name} could not open the application: ${r?.status} ${r?.text}`);
      await sleep(250);
    }
  }

  /** One edit, until the app says it is saved. */
  async edit(field: string, value: string) {
    this.stats.sent += 1;
    const started = performance.now();
    const deadline = Date.now() + this.deadlineMs;
    for (let attempt = 0; ; attempt++) {
      if (Date.now() > deadline) throw new Error(`${this.name}: ${field}=${value} not saved within ${this.deadlineMs} ms`);
      const body = { answers_revision: this.revision, answers: [{ block_key: field, schema_key: field, field_key: 'value', value }] };
      const r = await this.call('PATCH', `/api/applications/${this.applicationId}/answers`, body, { 'If-Match': this.etag }).catch(() => null);
      if (r?.status === 200) {
        const saved = AnswersWriteResult.parse(r.json);
        this.etag = saved.etag;
        this.revision = saved.answers_revision;
        this.ack(field, value, saved.answers_revision, started);
        return;
      }
      if (r?.status === 412) {
        this.stats.conflicts += 1;
        const current = CurrentAnswers.safeParse((r.json as { current?: unknown }).current);
        if (!current.success) {
          await this.open();
          continue;
        }
        this.etag = current.data.etag;
        this.revision = current.data.answers_revision;
        // The write had landed (its reply was lost and a retry met its own change): saved, nothing to apply again.
        const now = current.data.items.find((a) => a.schema_key === field && a.field_key === 'value');
        if (now?.value === value) {
          this.ack(field, value, current.data.answers_revision, started);
          return;
        }
        continue;
      }
      if (r === null || retryable(r.status)) {
        this.stats.errorsShown += 1;
        const retryAfter = Number(r?.headers.get('retry-after') ?? 0);
        await sleep(Math.max(retryAfter * 1000, Math.min(2_000, 100 * 2 ** attempt)));
        continue;
      }
      throw new Error(`${this.name}: ${field}=${value} refused with ${r.status}: ${r.text.slice(0, 300)}`);
    }
  }

  private ack(field: string, value: string, order: number, started: number) {
    this.stats.acknowledged += 1;
    this.stats.latenciesMs.push(performance.now() - started);
    this.acks.push({ editor: this.name, field, value, order });
  }
}

/** What the acknowledgements say against the Portal's final answers. */
export interface Verdict {
  acknowledged: number;
  superseded: number;
  lost: number;
  lostExamples: string[];
}

/**
 * Every acknowledged write must be present at the end, or superseded by a later acknowledged write to the same
 * field (later in the Portal's order of writes, answers_revision).
 */
export function verify(acks: readonly Ack[], finalValue: (field: string) => unknown): Verdict {
  const latest = new Map<string, number>();
  for (const a of acks) latest.set(a.field, Math.max(latest.get(a.field) ?? -Infinity, a.order));
  let superseded = 0;
  const lost: Ack[] = [];
  for (const a of acks) {
    if (a.order < latest.get(a.field)!) superseded += 1;
    else if (finalValue(a.field) !== a.value) lost.push(a);
  }
  return {
    acknowledged: acks.length,
    superseded,
    lost: lost.length,
    lostExamples: lost.slice(0, 5).map((a) => `${a.editor} ${a.field}=${a.value} (#${a.order}) but the Portal has ${JSON.stringify(finalValue(a.field))}`),
  };
}
