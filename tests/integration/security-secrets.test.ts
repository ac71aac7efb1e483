import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { AnswersPageView } from '@/lib/bff/applications';
import { BusinessCreatedView } from '@/lib/bff/businesses';
import { InvitationCreated } from '@/lib/bff/invitations';
import { SENTINEL_API_KEY, SENTINEL_SESSION_SECRET } from '../support/bff-stack';
import { BffClient, bffStack, invitedClient, signedIn, type Reply } from './support/bff';
import { newIdempotencyKey } from './support/bff-businesses';
import {
  REPO_ROOT,
  callPath,
  catalogCalls,
  routeCatalog,
  staffWithFixtures,
  segmentValues,
  sendCall,
  staticPagePaths,
  type ApplicationFixture,
  type RouteFixtures,
} from './support/route-catalog';

/*
 * DESIGN.md §1 and §3: the browser never sees the API key or a Portal URL, and logs redact the key,
 * cookies and tokens. The sentinel key the stack runs with is used nowhere else, so finding it anywhere —
 * a reply, the server's log, the static bundle, a rendered page — is a leak.
 */

const SECRETS = { 'the API key': SENTINEL_API_KEY, 'the session secret': SENTINEL_SESSION_SECRET };
const sandboxHost = () => new URL(bffStack().sandboxBaseUrl).host;

interface Seen {
  what: string;
  reply: Reply;
}
const seen: Seen[] = [];
async function track(what: string, reply: Promise<Reply>) {
  const r = await reply;
  seen.push({ what, reply: r });
  return r;
}

function expectNoSecret(text: string, where: string) {
  for (const [name, secret] of Object.entries(SECRETS)) expect(text.includes(secret), `${name} in ${where}`).toBe(false);
}

let f: RouteFixtures;
let staff: BffClient;

beforeAll(async () => void ({ staff, f } = await staffWithFixtures()), 120_000);

describe('the API key reaches no browser', () => {
  it('is in no reply body or header of any route, called as nobody, a reviewer, a client and staff', { timeout: 180_000 }, async () => {
    const reviewer = (await signedIn('reviewer')).client;
    const { client, link } = await invitedClient(staff, f.a.applicationId);
    const actors: Array<[string, BffClient, ApplicationFixture]> = [
      ['nobody', new BffClient(), f.b],
      ['a reviewer', reviewer, f.b],
      ['the client, on its application', client, f.a],
      ['the client, on another', client, f.b],
      ['staff', staff, f.b],
    ];
    const rank = (m: string) => (m === 'GET' ? 0 : m === 'DELETE' ? 2 : 1);
    const calls = catalogCalls(routeCatalog()).sort((x, y) => rank(x.method) - rank(y.method));
    for (const call of calls) {
      for (const [who, browser, app] of actors) {
        // Signing out would end the session the rest of the sweep needs; it is called signed in at the end.
        if (call.key === 'POST /api/auth/sign-out' && who !== 'nobody') continue;
        const path = callPath(call, segmentValues(call.route, f, app));
        await track(`${call.key} as ${who}`, sendCall(browser, call, path));
      }
    }

    // Replies of other kinds: the link a client opens, a new business (the Portal gives it an invitation_url), an invitation
    // link, errors of the Portal passed on (404, 412), a malformed id, and signing out with a session.
    await track('opening an invitation link', new BffClient().get(new URL(link).pathname));
    const created = await track(
      'creating a business with a contact',
      staff.post('/api/businesses', {
        body: { name: `Secrets Test ${randomBytes(3).toString('hex')} Ltd`, contact: { full_name: 'Casey Client', email: 'casey@example.com' } },
        idempotencyKey: newIdempotencyKey('business'),
      }),
    );
    expect(created.status, created.text).toBe(201);
    BusinessCreatedView.parse(created.body);

    const invited = await track('inviting a client', staff.post(`/api/applications/${f.b.applicationId}/invitations`, { body: {} }));
    expect(new URL(InvitationCreated.parse(invited.body).link).origin).toBe(bffStack().url);
    expect((await track('an application the Portal does not have', staff.get('/api/applications/ciappl_nosuchapp0'))).status).toBe(404);
    expect((await track('a malformed id', staff.get('/api/applications/not-an-id'))).status).toBe(400);
    const answers = `/api/applications/${f.b.applicationId}/answers`;
    const page = AnswersPageView.parse((await track('answers', staff.get(answers))).body);
    const field = page.items.find((i) => i.value_type === 'string')!;
    const write = { block_key: field.block_key, schema_key: field.schema_key, field_key: field.field_key, value: 'Stale Ltd' };
    const stale = await track('a stale answers write', staff.patch(answers, { ifMatch: '"stale"', body: { answers_revision: page.answers_revision, answers: [write] } }));
    expect(stale.status).toBe(412);
    const leaving = (await signedIn('staff')).client;
    expect((await track('signing out', leaving.post('/api/auth/sign-out'))).status).toBe(204);

    expect(seen.length).toBeGreaterThan(200);
    for (const { what, reply } of seen) {
      expectNoSecret(reply.text, `the body of ${what}`);
      for (const [name, value] of reply.headers) expectNoSecret(value, `the ${name} header of ${what}`);
    }
  });

  it('puts no Portal URL in any reply, not even the invitation_url of a new business (DESIGN.md §1)', () => {
    expect(seen.length).toBeGreaterThan(200);
    const host = sandboxHost();
    for (const { what, reply } of seen) {
      expect(reply.text.includes(host), `the sandbox's host in ${what}: ${reply.text.slice(0, 300)}`).toBe(false);
      for (const [name, value] of reply.headers) expect(value.includes(host), `the sandbox's host in the ${name} header of ${what}`).toBe(false);
    }
  });
});

describe('the API key is in nothing else the app serves or writes', () => {
  it('is in no server-rendered page', async () => {
    const paths = [...staticPagePaths(), '/invite/invalid?reason=revoked', `/no-such-page-${randomBytes(3).toString('hex')}`];
    expect(paths).toEqual(expect.arrayContaining(['/', '/invite/invalid']));
    for (const browser of [new BffClient(), staff]) {
      for (const path of paths) {
        const r = await browser.get(path, { headers: { Accept: 'text/html' } });
        if (r.status >= 300 && r.status < 400) {
          // A page may send a signed-in person on (the sign-in page does): only within this site.
          expect(r.headers.get('location'), path).toMatch(/^\/(?!\/)/);
          expectNoSecret(r.text, `the redirect of ${path}`);
          continue;
        }
        expect(r.status, path).toBeLessThan(path.startsWith('/no-such-page') ? 500 : 300);
        expect(r.headers.get('content-type'), path).toMatch(/^text\/html/);
        expect(r.text.length, path).toBeGreaterThan(100);
        expectNoSecret(r.text, `the page ${path}`);
        expect(r.text.includes(sandboxHost()), `the sandbox's host in ${path}`).toBe(false);
      }
    }
  });

  it('is in no file under .next/static', () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, e.name);
        if (e.isDirectory()) walk(path);
        else files.push(path);
      }
    };
    walk(join(REPO_ROOT, '.next', 'static'));
    expect(files.length).toBeGreaterThan(5);
    let read = 0;
    for (const file of files) {
      let content: string;
      try {
        content = readFileSync(file, 'latin1');
      } catch {
        continue; // A concurrent rebuild removed it: what replaces it is what the next run checks.
      }
      read++;
      expectNoSecret(content, file);
    }
    expect(read).toBeGreaterThan(5);
  });

  it('is in no line of the Next server’s log, which redacts cookies and tokens too', async () => {
    // Our own calls must be in the log before it is read, or the check would say little.
    const requestIds = seen.map((s) => s.reply.headers.get('x-upstream-request-id')).filter((id): id is string => !!id);
    expect(requestIds.length).toBeGreaterThan(20);
    const last = requestIds[requestIds.length - 1]!;
    let log = '';
    for (let i = 0; i < 100 && !log.includes(last); i++) {
      log = readFileSync(bffStack().logFile, 'utf8');
      if (!log.includes(last)) await new Promise((r) => setTimeout(r, 50));
    }
    expect(log, 'the log holds the sweep’s upstream calls').toContain(last);
    const lines = log.split('\n').filter((l) => l.trim() !== '');
    expect(lines.length).toBeGreaterThan(100);

    const cookies = seen.flatMap((s) => s.reply.headers.getSetCookie().map((c) => c.split(';')[0]!.split('=').slice(1).join('=')));
    const sealed = cookies.filter((c) => c.length > 20);
    expect(sealed.length).toBeGreaterThan(0);
    const tokens = seen.map((s) => /\/invite\/([A-Za-z0-9_-]{20,})/.exec(s.reply.text)?.[1]).filter((t): t is string => !!t);
    expect(tokens.length).toBeGreaterThan(0);
    for (const [n, line] of lines.entries()) {
      expectNoSecret(line, `log line ${n + 1}`);
      expect(line, `log line ${n + 1}`).not.toMatch(/Bearer\s+pk_/);
      // iron-session seals all start like this: no session cookie, whoever's, is ever logged.
      expect(line.includes('Fe26.2*'), `a session seal in log line ${n + 1}`).toBe(false);
      for (const c of sealed) expect(line.includes(c), `a session cookie in log line ${n + 1}`).toBe(false);
      for (const t of tokens) expect(line.includes(t), `an invitation token in log line ${n + 1}`).toBe(false);
    }
  });
});
