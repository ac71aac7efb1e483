import { createHash } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { extractText, getDocumentProxy } from 'unpdf';
import type { RunningSandbox } from '@/server/sandbox/server';
import { createItem, mustWriteAnswers, uploadFile, w } from './support/applications';
import { BffClient, bffStack, clientSessionFor, signedIn } from './support/bff';
import { KEYS, SandboxClient } from './support/sandbox';
import { setSandboxFaults } from './support/sandbox-faults';
import { freshApplication } from './support/applications';
import { zipEntries } from './support/zip-listing';

/** The funder package over HTTP: the PDF read back as text, the ZIP's listing and bytes, who may have them. */

const portal = () => new SandboxClient({ baseUrl: bffStack().sandboxBaseUrl } as RunningSandbox, KEYS.full);
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

// Every script a person may type, one per answer, in the form's order.
const LATIN = 'Société Générale Łódź Zürich Ærø';
const GREEK = 'Ελληνική Ναυτιλιακή Εταιρεία';
const CYRILLIC = 'Финансовый директор Ёлкин';
const CJK = '深圳精密机械有限公司 と 東京の工場';
const ARABIC_WORDS = ['نصمم', 'القطع', 'الدقيقة', 'للسكك', 'الحديدية'];
const HEBREW_WORDS = ['אנחנו', 'מייצרים', 'חלקים'];
const EMOJI = '🚀';
const HIDDEN_URL = 'https://hidden-presence.example/never-shown';

async function download(client: BffClient, path: string) {
  const res = await fetch(`${client.base}${path}`, { headers: { Cookie: client.cookieHeader() }, redirect: 'manual' });
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

async function pdfText(bytes: Uint8Array) {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const { text } = await extractText(pdf, { mergePages: true });
  return { text, pages: pdf.numPages };
}

/** Each needle found after the one before it. */
function expectInOrder(text: string, needles: readonly string[]) {
  let from = 0;
  for (const needle of needles) {
    const at = text.indexOf(needle, from);
    expect(at, `"${needle}" after position ${from}`).toBeGreaterThanOrEqual(0);
    from = at + needle.length;
  }
}

let appId: string;
let fileBytes: Buffer;
let staff: BffClient;
// The Portal refuses bidi controls in names (the unit tests cover them); a slash and dot-dots it takes.
const BUSINESS = 'Meridian/..Ünïcode Trading Ltd';

beforeAll(async () => {
  const p = portal();
  appId = await freshApplication(p, BUSINESS);
  await mustWriteAnswers(p, appId, [
    w('legal_name', LATIN),
    w('trading_name', GREEK),
    w('company_type', 'sole_trader'),
    w('website', 'https://meridian.example'),
    // Hidden while a website is answered: kept upstream, never shown.
    w('online_presence_url', HIDDEN_URL),
    w('business_description', `${CJK}\n${ARABIC_WORDS.join(' ')} 2024\n${HEBREW_WORDS.join(' ')}\nLaunch ${EMOJI} soon`),
    w('contact_name', CYRILLIC),
  ]);
  await createItem(p, appId, 'owners', [{ schema_key: 'owner_full_name', field_key: 'value', value: 'Zoë Ångström' }]);
  fileBytes = Buffer.from(`%PDF-1.4\n% bank statement ${appId}\n`);
  await uploadFile(p, appId, { block_key: 'bank_statements', schema_key: 'bank_statements', field_key: 'files' }, fileBytes.toString('latin1'), {
    filename: 'statement/../../march.pdf',
  });
  ({ client: staff } = await signedIn('staff'));
}, 60_000);

afterEach(() => setSandboxFaults(bffStack().sandboxOrigin, null));

describe('the application PDF', () => {
  it('staff download it named for the business and the date, with every visible answer in order, in every script', async () => {
    const { res, bytes } = await download(staff, `/api/applications/${appId}/pdf`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('cache-control')).toContain('no-store');
    const disposition = res.headers.get('content-disposition')!;
    const today = new Date().toISOString().slice(0, 10);
    expect(disposition).toMatch(/^attachment; filename="[\x20-\x7e]+"; filename\*=UTF-8''/);
    const named = decodeURIComponent(disposition.split("filename*=UTF-8''")[1]!);
    // The slash is taken out of the name.
    expect(named).toBe(`Meridian_..Ünïcode Trading Ltd – application – ${today}.pdf`);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    const { text, pages } = await pdfText(bytes);
    expect(pages).toBeGreaterThan(3);
    expectInOrder(text, [
      'Prepared by',
      'Business details',
      'Legal business name',
      LATIN,
      'Trading name',
      GREEK,
      'Type of business',
      'Sole trader',
      'Website',
      'https://meridian.example',
      'What does the business do?',
      '深圳精密机械有限公司',
      '東京の工場',
      'Contact name',
      CYRILLIC,
      'Owners 1',
      'Zoë Ångström',
      'Documents',
      'statement',
    ]);
    // Right-to-left words are extracted whole (shaped glyphs map back to their letters).
    for (const word of [...ARABIC_WORDS, ...HEBREW_WORDS]) expect(text).toContain(word);
    expect(text).toContain(EMOJI);
    // Hidden questions: neither the answer nor the question.
    expect(text).not.toContain('hidden-presence');
    expect(text).not.toContain('Social media or marketplace page');
    // A required question left empty is marked, and the document carries its checksum.
    expect(text).toContain('Not answered (required)');
    expect(text).toContain(`SHA-256: ${sha(fileBytes)}`);
    expect(text).toMatch(/Page 1 of \d+/);
  }, 60_000);

  it('the invited client gets their own, and another application\u2019s is not found', async () => {
    const client = await clientSessionFor(appId);
    const own = await download(client, `/api/applications/${appId}/pdf`);
    expect(own.res.status).toBe(200);
    expect((await pdfText(own.bytes)).text).toContain('The applicant, through their invitation');

    const other = await freshApplication(portal(), 'Someone Else Ltd');
    const theirs = await download(client, `/api/applications/${other}/pdf`);
    expect(theirs.res.status).toBe(404);
    expect(theirs.bytes.toString('utf8')).not.toContain('%PDF');
    // The ZIP is for staff.
    expect((await download(client, `/api/applications/${appId}/package`)).res.status).toBe(403);
  }, 60_000);

  it('a Portal that keeps failing while the answers are read gives an error before any byte of a PDF', async () => {
    // Proves the path first: the same request succeeds.
    expect((await download(staff, `/api/applications/${appId}/pdf`)).res.status).toBe(200);
    await setSandboxFaults(bffStack().sandboxOrigin, { rate_5xx: 1, status_5xx: 503, paths: [`client-intake-applications/${appId}/answers/`] });
    const { res, bytes } = await download(staff, `/api/applications/${appId}/pdf`);
    expect(res.status).toBeGreaterThanOrEqual(500);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(bytes.toString('latin1')).not.toContain('%PDF');
  }, 60_000);
});

describe('the funder package', () => {
  it('is a ZIP of every document named <business> – <question> – <file>, then the PDF listing their SHA-256', async () => {
    const { res, bytes } = await download(staff, `/api/applications/${appId}/package`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(decodeURIComponent(res.headers.get('content-disposition')!.split("filename*=UTF-8''")[1]!)).toMatch(/ – funder package – \d{4}-\d{2}-\d{2}\.zip$/);

    const entries = zipEntries(bytes);
    expect(entries.map((e) => e.name)).toEqual([
      expect.stringMatching(/^Meridian_\.\.Ünïcode Trading Ltd – Business bank statements – .*march\.pdf$/),
      expect.stringMatching(/^Meridian_\.\.Ünïcode Trading Ltd – application – \d{4}-\d{2}-\d{2}\.pdf$/),
    ]);
    for (const e of entries) {
      expect(e.name).not.toMatch(/[/\\\u0000]/);
      expect(e.name.split(' – ').every((part) => part !== '..' && part !== '')).toBe(true);
    }
    expect(sha(entries[0]!.data!)).toBe(sha(fileBytes));
    const { text } = await pdfText(entries[1]!.data!);
    expect(text).toContain(`SHA-256: ${sha(fileBytes)}`);
    expect(text).toContain(LATIN);
  }, 60_000);
});
