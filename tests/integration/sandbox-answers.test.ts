import { describe, expect, it } from 'vitest';
import { AnswerPage, AnswersMutationResult, type ApplicationContract } from '@/lib/portal';
import {
  answerValue,
  answersEtag,
  appPath,
  createItem,
  freshApplication,
  keyOf,
  mustWriteAnswers,
  readAllAnswers,
  readApplication,
  readContract,
  updateItem,
  w,
  writeAnswers,
  type Write,
} from './support/applications';
import { expectError, setupSandbox, type SandboxClient } from './support/sandbox';

const ctx = setupSandbox();

/** Top-level fields in contract order: sections by order, then questions by order, then fields as listed. */
function contractOrder(contract: ApplicationContract, sectionKey?: string) {
  const sectionOrder = new Map(contract.sections.map((s) => [s.section_key, s.order]));
  return contract.questions
    .filter((q) => !q.is_repeatable && (sectionKey === undefined || q.section_key === sectionKey))
    .sort((a, b) => sectionOrder.get(a.section_key)! - sectionOrder.get(b.section_key)! || a.order - b.order)
    .flatMap((q) => q.fields.map((f) => keyOf({ block_key: q.block_key, schema_key: q.schema_key, field_key: f.field_key })));
}

const answersUrl = (appId: string, query = '') => `${appPath(appId)}answers/${query}`;

/** A fresh application whose legal name is written (answers_revision 1). */
async function withLegalName(client: SandboxClient, name: string) {
  const appId = await freshApplication(client);
  await mustWriteAnswers(client, appId, [w('legal_name', name)]);
  return appId;
}

describe('answers paging', () => {
  it('pages 100 answers by default, forward only', async () => {
    const res = await ctx.client.get(answersUrl('ciappl_atlaslogistics'));
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe('"answers-ciappl_atlaslogistics-1"');
    const page = AnswerPage.parse(res.body);
    expect(page.items).toHaveLength(100);
    expect(page.next_cursor).toEqual(expect.any(String));
    expect(page.previous_cursor).toBeNull();
    expect(page.answers_revision).toBe(1);
  });

  it('takes page_size from 1 to 500', async () => {
    const { client } = ctx;
    for (const [size, expected] of [
      [1, 1],
      [500, 500],
      [37, 37],
    ] as const) {
      const { data } = await client.read(AnswerPage, answersUrl('ciappl_atlaslogistics', `?page_size=${size}`));
      expect(data.items).toHaveLength(expected);
    }
  });

  it('refuses page_size 0, 501 and non-integers with 400 naming page_size', async () => {
    for (const bad of ['0', '501', '2.5', 'ten', '']) {
      const error = expectError(await ctx.client.get(answersUrl('ciappl_atlaslogistics', `?page_size=${bad}`)), 400, 'invalid_request');
      expect(error.details.map((d) => d.parameter)).toContain('page_size');
    }
  });

  it('walks every top-level field once, in contract order, with a small page_size (funding contract)', async () => {
    const { client } = ctx;
    const contract = await readContract(client, 'ciappl_meridian');
    const { items, pages, revision } = await readAllAnswers(client, 'ciappl_meridian', 7);
    const expected = contractOrder(contract);
    expect(expected).toHaveLength(44);
    expect(pages).toBe(7);
    expect(items.map(keyOf)).toEqual(expected);
    expect(revision).toBe(1);
  });

  it('walks the 1,000-field contract the same way, every page carrying previous_cursor null', async () => {
    const { client } = ctx;
    const contract = await readContract(client, 'ciappl_atlaslogistics');
    const expected = contractOrder(contract);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `?page_size=97&cursor=${encodeURIComponent(cursor)}` : '?page_size=97';
      const { data } = await client.read(AnswerPage, answersUrl('ciappl_atlaslogistics', query));
      expect(data.previous_cursor).toBeNull();
      seen.push(...data.items.map(keyOf));
      cursor = data.next_cursor;
    } while (cursor);
    expect(expected.length).toBeGreaterThan(1000);
    expect(seen).toEqual(expected);
  });

  it('filters by section_key', async () => {
    const { client } = ctx;
    const contract = await readContract(client, 'ciappl_meridian');
    const { items, pages } = await readAllAnswers(client, 'ciappl_meridian', 2, 'funding');
    expect(items.map(keyOf)).toEqual(contractOrder(contract, 'funding'));
    expect(items.map((a) => a.schema_key)).toEqual([
      'funding_amount',
      'funding_purpose',
      'purpose_details',
      'funding_timeline',
      'preferred_term_months',
      'can_offer_collateral',
    ]);
    expect(new Set(items.map((a) => a.section_key))).toEqual(new Set(['funding']));
    expect(pages).toBe(3);
    // A section holding only repeatable groups has no top-level answers.
    const owners = await client.read(AnswerPage, answersUrl('ciappl_meridian', '?section_key=owners'));
    expect(owners.data.items).toEqual([]);
    expect(owners.data.next_cursor).toBeNull();
  });

  it('refuses an unknown section_key and unknown query parameters with 400 naming them', async () => {
    const { client } = ctx;
    const unknownSection = expectError(await client.get(answersUrl('ciappl_meridian', '?section_key=nope')), 400, 'invalid_request');
    expect(unknownSection.details.map((d) => d.parameter)).toEqual(['section_key']);
    const unknownParam = expectError(await client.get(answersUrl('ciappl_meridian', '?page_size=5&sort=desc')), 400, 'invalid_request');
    expect(unknownParam.details.map((d) => d.parameter)).toEqual(['sort']);
  });

  it('refuses cursors from another section, another page_size, another application or altered', async () => {
    const { client } = ctx;
    const first = await client.read(AnswerPage, answersUrl('ciappl_meridian', '?page_size=2&section_key=business'));
    const cursor = encodeURIComponent(first.data.next_cursor!);
    const ok = await client.read(AnswerPage, answersUrl('ciappl_meridian', `?page_size=2&section_key=business&cursor=${cursor}`));
    expect(ok.data.items.map((a) => a.schema_key)).toEqual(['company_type', 'registration_number']);
    for (const query of [
      `?page_size=2&section_key=contact&cursor=${cursor}`,
      `?page_size=2&cursor=${cursor}`,
      `?page_size=3&section_key=business&cursor=${cursor}`,
      `?page_size=2&section_key=business&cursor=${cursor}x`,
      `?page_size=2&section_key=business&cursor=not-a-cursor`,
    ]) {
      const error = expectError(await client.get(answersUrl('ciappl_meridian', query)), 400, 'invalid_request');
      expect(error.details.map((d) => d.parameter)).toEqual(['cursor']);
    }
    const elsewhere = expectError(await client.get(answersUrl('ciappl_oakridge', `?page_size=2&section_key=business&cursor=${cursor}`)), 400, 'invalid_request');
    expect(elsewhere.details.map((d) => d.parameter)).toEqual(['cursor']);
  });

  it('describes each answer with the fields of spec 2.10', async () => {
    const { items } = await readAllAnswers(ctx.client, 'ciappl_meridian');
    const at = (schema: string, field = 'value') => items.find((a) => a.schema_key === schema && a.field_key === field)!;
    expect(at('legal_name')).toEqual({
      section_key: 'business',
      section_label: 'Business details',
      block_key: 'legal_name',
      block_label: 'Legal business name',
      schema_key: 'legal_name',
      field_key: 'value',
      field_label: 'Legal business name',
      value_type: 'string',
      is_required: true,
      allowed_values: [],
      value: 'Meridian Engineering Ltd',
    });
    expect(at('company_type').allowed_values).toEqual(['sole_trader', 'partnership', 'limited_company', 'llp', 'llc', 'corporation', 'nonprofit', 'other']);
    expect(at('funding_purpose')).toMatchObject({ value_type: 'array', value: ['equipment', 'working_capital'] });
    expect(at('funding_purpose').allowed_values).toHaveLength(8);
    expect(at('date_established')).toMatchObject({ value_type: 'date', value: '2016-04-01' });
    expect(at('contact_email').value_type).toBe('email');
    expect(at('website').value_type).toBe('uri');
    expect(at('employee_count')).toMatchObject({ value_type: 'integer', value: 24 });
    expect(at('net_profit')).toMatchObject({ value_type: 'number', value: 142500.5 });
    expect(at('can_offer_collateral')).toMatchObject({ value_type: 'boolean', value: true });
    expect(at('business_address', 'line2')).toMatchObject({ field_label: 'Address line 2', is_required: false, value: 'Unit 3' });
    expect(at('business_address', 'country')).toMatchObject({ block_label: 'Registered or trading address', is_required: true, value: 'GB' });
    // Hidden (no "other" purpose) but required when visible; unanswered reads as null.
    expect(at('purpose_details')).toMatchObject({ is_required: true, value: null });
    expect(at('bank_statements', 'files')).toMatchObject({ value_type: 'array', value: null });
  });
});

describe('answer writes', () => {
  it('writes answers, moves answers_revision by one and returns the new ETag', async () => {
    const { client } = ctx;
    const appId = await freshApplication(client);
    const writes: Write[] = [w('contact_email', 'ops@writes.example'), w('legal_name', 'Writes Ltd'), w('business_address', 'Leeds', 'city')];
    const res = await client.patch(answersUrl(appId), { ifMatch: answersEtag(appId, 0), body: { answers_revision: 0, answers: writes } });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe(answersEtag(appId, 1));
    expect(AnswersMutationResult.parse(res.body)).toEqual({
      object: 'client_intake_application_answers',
      application: { id: appId, object: 'client_intake_application' },
      answers_revision: 1,
      updated_answers: writes,
      affected_section_keys: ['business', 'contact'],
    });
    const read = await client.get(answersUrl(appId));
    expect(read.headers.get('etag')).toBe(answersEtag(appId, 1));
    const { items } = await readAllAnswers(client, appId);
    const values = Object.fromEntries(items.filter((a) => a.value !== null).map((a) => [keyOf(a), a.value]));
    expect(values).toEqual({
      'legal_name|legal_name|value': 'Writes Ltd',
      'business_address|business_address|city': 'Leeds',
      'contact_email|contact_email|value': 'ops@writes.example',
    });
  });

  it('accepts every kind of valid value and reads it back unchanged', async () => {
    const { client } = ctx;
    const appId = await freshApplication(client);
    const writes = [
      w('employee_count', 0),
      w('net_profit', -1250.75),
      w('funding_amount', 99999.99),
      w('funding_purpose', ['other', 'equipment']),
      w('has_existing_debt', false),
      w('website', 'https://valid.example/path?q=1'),
      w('date_established', '2024-02-29'),
      w('contact_phone', '+44 (0) 20-7946-0958'),
      w('business_address', 'US', 'country'),
      w('decl_accurate', true),
    ];
    await mustWriteAnswers(client, appId, writes);
    const { items } = await readAllAnswers(client, appId);
    for (const write of writes) expect(items.find((a) => keyOf(a) === keyOf(write))?.value).toEqual(write.value);
  });

  it('does not move the revision for a write that changes nothing', async () => {
    const { client } = ctx;
    const appId = await withLegalName(client, 'Same Ltd');
    const res = await client.patch(answersUrl(appId), {
      ifMatch: answersEtag(appId, 1),
      body: { answers_revision: 1, answers: [w('legal_name', 'Same Ltd'), w('trading_name', null)] },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe(answersEtag(appId, 1));
    expect(AnswersMutationResult.parse(res.body).answers_revision).toBe(1);
    expect((await readApplication(client, appId)).application.answers_revision).toBe(1);
  });

  it('clears an answer with null', async () => {
    const { client } = ctx;
    const appId = await withLegalName(client, 'Clear Me Ltd');
    const result = await mustWriteAnswers(client, appId, [w('legal_name', null)]);
    expect(result.answers_revision).toBe(2);
    expect(result.updated_answers).toEqual([w('legal_name', null)]);
    expect(await answerValue(client, appId, 'legal_name')).toBeNull();
  });

  it('refuses a stale If-Match and a stale answers_revision with 412, writing nothing', async () => {
    const { client } = ctx;
    const appId = await withLegalName(client, 'First Ltd');
    const staleEtag = await client.patch(answersUrl(appId), {
      ifMatch: answersEtag(appId, 0),
      body: { answers_revision: 1, answers: [w('legal_name', 'Second Ltd')] },
    });
    expect(expectError(staleEtag, 412, 'precondition_failed').details.map((d) => d.parameter)).toEqual(['If-Match']);
    const staleBody = await client.patch(answersUrl(appId), {
      ifMatch: answersEtag(appId, 1),
      body: { answers_revision: 0, answers: [w('legal_name', 'Second Ltd')] },
    });
    expect(expectError(staleBody, 412, 'precondition_failed').details.map((d) => d.parameter)).toEqual(['answers_revision']);
    const future = await client.patch(answersUrl(appId), {
      ifMatch: answersEtag(appId, 1),
      body: { answers_revision: 2, answers: [w('legal_name', 'Second Ltd')] },
    });
    expectError(future, 412, 'precondition_failed');
    expect(await answerValue(client, appId, 'legal_name')).toBe('First Ltd');
    expect((await readApplication(client, appId)).application.answers_revision).toBe(1);
  });

  it('requires If-Match (428)', async () => {
    const { client } = ctx;
    const appId = await freshApplication(client);
    const res = await client.patch(answersUrl(appId), { body: { answers_revision: 0, answers: [w('legal_name', 'No Precondition Ltd')] } });
    expect(expectError(res, 428, 'precondition_required').details.map((d) => d.parameter)).toEqual(['If-Match']);
    expect(await answerValue(client, appId, 'legal_name')).toBeNull();
  });

  it('refuses a malformed body with 422 or 400', async () => {
    const { client } = ctx;
    const appId = await freshApplication(client);
    const opts = { ifMatch: answersEtag(appId, 0) };
    expectError(await client.patch(answersUrl(appId), { ...opts, body: { answers: [w('legal_name', 'x')] } }), 422, 'validation_failed');
    expectError(await client.patch(answersUrl(appId), { ...opts, body: { answers_revision: 0, answers: [] } }), 422, 'validation_failed');
    const extra = expectError(
      await client.patch(answersUrl(appId), { ...opts, body: { answers_revision: 0, answers: [w('legal_name', 'x')], force: true } }),
      422,
      'validation_failed',
    );
    expect(extra.details.map((d) => d.parameter)).toEqual(['force']);
    const notJson = await client.patch(answersUrl(appId), { ...opts, headers: { 'Content-Type': 'application/json' }, body: undefined });
    expect([400, 422]).toContain(notJson.status);
  });

  describe('value validation (422 validation_failed, all or nothing)', () => {
    const long = (n: number) => 'x'.repeat(n);
    const cases: Array<[string, Write, string]> = [
      ['wrong type (text for an integer)', w('employee_count', 'ten'), 'type'],
      ['wrong type (fraction for an integer)', w('employee_count', 2.5), 'type'],
      ['wrong type (text for yes/no)', w('can_offer_collateral', 'yes'), 'type'],
      ['wrong type (object)', w('legal_name', { text: 'Ltd' }), 'type'],
      ['wrong type (list for text)', w('legal_name', ['Ltd']), 'type'],
      ['enum', w('company_type', 'plc'), 'enum'],
      ['enum of a declaration (only yes)', w('decl_accurate', false), 'enum'],
      ['enum of a list item', w('funding_purpose', ['equipment', 'yachts']), 'enum'],
      ['email format', w('contact_email', 'alex@'), 'format'],
      ['date format (no 30 February)', w('date_established', '2024-02-30'), 'format'],
      ['date format (not ISO)', w('financial_year_end', '31/03/2025'), 'format'],
      ['uri format', w('website', 'meridian.example'), 'format'],
      ['pattern (phone)', w('contact_phone', 'call me'), 'pattern'],
      ['pattern (country of an address)', w('business_address', 'gb', 'country'), 'pattern'],
      ['minimum', w('employee_count', -1), 'minimum'],
      ['maximum', w('preferred_term_months', 361), 'maximum'],
      ['maximum (percent)', w('gross_margin', 100.5), 'maximum'],
      ['multipleOf (currency cents)', w('funding_amount', 10.005), 'multiple_of'],
      ['minLength', w('legal_name', 'A'), 'min_length'],
      ['maxLength', w('trading_name', long(256)), 'max_length'],
      ['minItems', w('funding_purpose', []), 'min_items'],
      ['string over 10000 characters', w('business_description', long(10_001)), 'too_long'],
      ['string over 10000 characters for a choice', w('company_type', long(10_001)), 'too_long'],
      ['array over 100 items', w('funding_purpose', Array.from({ length: 101 }, () => 'other')), 'too_many_items'],
      ['array string item over 1000 characters', w('funding_purpose', ['equipment', long(1_001)]), 'item_too_long'],
      ['email with a dot before the @ (RFC 5322 dot-atom)', w('contact_email', 'alex.@meridian.example'), 'format'],
      ['uri with a space the URL parser would repair', w('website', 'https://meridian.example/a b'), 'format'],
      ['a number beyond 2^53, which a double cannot hold exactly', w('funding_amount', 123456789012345678901234567890), 'unsafe_number'],
      ['text with NUL', w('legal_name', 'Meridian\u0000 Ltd'), 'unsafe_text'],
      ['text with a lone surrogate', w('business_description', 'half \ud83d a smile'), 'unsafe_text'],
      ['text with a bidi override', w('trading_name', 'Meridian \u202Edtl'), 'unsafe_text'],
    ];

    /** A write to a fresh application that must be refused as a whole: the error and the application. */
    async function refusedWrite(answers: Write[]) {
      const appId = await freshApplication(ctx.client);
      const error = expectError(await writeAnswers(ctx.client, appId, answers), 422, 'validation_failed');
      return { client: ctx.client, appId, error };
    }

    it.each(cases)('%s', async (_label, write, code) => {
      const { client, appId, error } = await refusedWrite([write]);
      expect(error.details.map(({ code: c, block_key, schema_key, field_key, item_id }) => ({ code: c, block_key, schema_key, field_key, item_id }))).toEqual([
        { code, block_key: write.block_key, schema_key: write.schema_key, field_key: write.field_key, item_id: undefined },
      ]);
      expect(error.details[0]!.message.length).toBeGreaterThan(0);
      expect((await readApplication(client, appId)).application.answers_revision).toBe(0);
    });

    it('writes nothing when one answer of a batch is bad, and reports every bad one', async () => {
      const { client, appId, error } = await refusedWrite([
        w('legal_name', 'Good Name Ltd'),
        w('employee_count', -5),
        w('business_address', 'Leeds', 'city'),
        w('contact_email', 'nope'),
      ]);
      expect(error.details.map((d) => [d.code, d.schema_key, d.field_key])).toEqual([
        ['minimum', 'employee_count', 'value'],
        ['format', 'contact_email', 'value'],
      ]);
      expect(await answerValue(client, appId, 'legal_name')).toBeNull();
      expect(await answerValue(client, appId, 'business_address', 'city')).toBeNull();
      expect((await readApplication(client, appId)).application.answers_revision).toBe(0);
    });

    it('refuses unknown fields, repeatable fields, file fields and duplicates', async () => {
      const { client, appId, error } = await refusedWrite([
        w('favourite_colour', 'blue'),
        w('business_address', 'x', 'planet'),
        { block_key: 'owners', schema_key: 'owner_full_name', field_key: 'value', value: 'Alex Morgan' },
        { block_key: 'legal_name', schema_key: 'trading_name', field_key: 'value', value: 'Mixed Keys' },
        w('bank_statements', ['afile_123'], 'files'),
        w('legal_name', 'Twice Ltd'),
        w('legal_name', 'Twice Again Ltd'),
      ]);
      expect(error.details.map((d) => [d.code, d.block_key, d.schema_key, d.field_key])).toEqual([
        ['unknown_field', 'favourite_colour', 'favourite_colour', 'value'],
        ['unknown_field', 'business_address', 'business_address', 'planet'],
        ['repeatable_field', 'owners', 'owner_full_name', 'value'],
        ['unknown_field', 'legal_name', 'trading_name', 'value'],
        ['file_field', 'bank_statements', 'bank_statements', 'files'],
        ['duplicate_field', 'legal_name', 'legal_name', 'value'],
      ]);
      expect(await answerValue(client, appId, 'legal_name')).toBeNull();
    });
  });
});

describe('conditional visibility', () => {
  it('changes what is required, and so progress, as answers change', async () => {
    const { client } = ctx;
    const appId = await freshApplication(client);
    const progress = async () => (await readApplication(client, appId)).application.progress;
    expect(await progress()).toEqual({ completed_items: 0, total_items: 26, percent: 0 });

    // A limited company must give its registration number.
    await mustWriteAnswers(client, appId, [w('company_type', 'limited_company')]);
    expect(await progress()).toEqual({ completed_items: 1, total_items: 27, percent: 3 });
    await mustWriteAnswers(client, appId, [w('registration_number', '09876543')]);
    expect(await progress()).toEqual({ completed_items: 2, total_items: 27, percent: 7 });

    // Existing debt asks for its amount; "other" purpose asks for details.
    await mustWriteAnswers(client, appId, [w('has_existing_debt', true), w('funding_purpose', ['equipment', 'other'])]);
    expect(await progress()).toEqual({ completed_items: 4, total_items: 29, percent: 13 });

    // A sole trader hides the registration number again: its answer stays but no longer counts.
    await mustWriteAnswers(client, appId, [w('company_type', 'sole_trader'), w('has_existing_debt', false)]);
    expect(await progress()).toEqual({ completed_items: 3, total_items: 27, percent: 11 });
    expect(await answerValue(client, appId, 'registration_number')).toBe('09876543');

    // An optional question that a condition reveals adds nothing to what is required.
    await mustWriteAnswers(client, appId, [w('accountant_name', 'Ledger & Co')]);
    expect(await progress()).toEqual({ completed_items: 3, total_items: 27, percent: 11 });
  });

  it('counts required fields inside items, and their own conditions', async () => {
    const { client } = ctx;
    const appId = await freshApplication(client);
    const progress = async () => (await readApplication(client, appId)).application.progress;
    // The owner satisfies min_items and brings five required fields (the guarantee limit stays hidden).
    const owner = await createItem(client, appId, 'owners', [{ schema_key: 'owner_full_name', field_key: 'value', value: 'Robin Diaz' }]);
    expect(await progress()).toEqual({ completed_items: 2, total_items: 31, percent: 6 });
    const res = await updateItem(client, appId, 'owners', owner.item_id, [{ schema_key: 'owner_is_guarantor', field_key: 'value', value: true }]);
    expect(res.status).toBe(200);
    expect(await progress()).toEqual({ completed_items: 3, total_items: 32, percent: 9 });
    // A nested address item brings its own five required fields (four address lines and the years).
    await createItem(client, appId, 'owner_addresses', [{ schema_key: 'owner_address', field_key: 'city', value: 'York' }], owner.item_id);
    expect(await progress()).toEqual({ completed_items: 4, total_items: 37, percent: 10 });
  });
});
