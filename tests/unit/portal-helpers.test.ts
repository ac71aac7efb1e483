import { describe, expect, it } from 'vitest';
import {
  PortalError,
  RETRY_POLICY,
  cleanFilename,
  contentDisposition,
  ifMatchValue,
  isEtag,
  isIdempotencyKey,
  newIdempotencyKey,
  parseRetryAfter,
  routes,
  toBrowserError,
  urlBelow,
} from '@/server/portal';
import { backoffMs, rateLimitWaitMs, repeatableAfterFailure } from '@/server/portal/retry-policy';
import { filenameFrom } from '@/server/sandbox/handlers/transfers';

describe('routes', () => {
  it('builds the DESIGN.md §5 paths relative to the base URL', () => {
    expect(routes.apiRoot()).toBe('');
    expect(routes.openapi()).toBe('openapi.json');
    expect(routes.businesses()).toBe('businesses/');
    expect(routes.business('biz_a1')).toBe('businesses/biz_a1/');
    expect(routes.businessStatus('biz_a1')).toBe('businesses/biz_a1/status/');
    expect(routes.businessStageTransitions('biz_a1')).toBe('businesses/biz_a1/stage-transitions/');
    expect(routes.businessPeople('biz_a1')).toBe('businesses/biz_a1/people/');
    expect(routes.businessPipelines()).toBe('business-pipelines/');
    expect(routes.businessPipelineStages('bpipe_x')).toBe('business-pipelines/bpipe_x/stages/');
    expect(routes.application('ciappl_a')).toBe('client-intake-applications/ciappl_a/');
    expect(routes.autofillSuggestionAccept('ciappl_a', 'afsug_1')).toBe('client-intake-applications/ciappl_a/autofill-suggestions/afsug_1/accept/');
    expect(routes.autofillSuggestionDismiss('ciappl_a', 'afsug_1')).toBe('client-intake-applications/ciappl_a/autofill-suggestions/afsug_1/dismiss/');
    expect(routes.deals()).toBe('deals/');
    expect(routes.deal('deal_1')).toBe('deals/deal_1/');
    expect(routes.dealStageTransitions('deal_1')).toBe('deals/deal_1/stage-transitions/');
    expect(routes.dealPipelines()).toBe('deal-pipelines/');
    expect(routes.dealPipelineStages('dpipe_1')).toBe('deal-pipelines/dpipe_1/stages/');
    expect(routes.recipients()).toBe('recipients/');
    expect(routes.dealApplication('dapp_1')).toBe('deal-applications/dapp_1/');
  });

  it.each(['..', 'biz_../x', 'biz_A', 'biz_a/b', 'biz_%2e', '', 'ciappl_a'])('refuses the business id %j before any request', (bad) => {
    expect(() => routes.business(bad)).toThrow(PortalError);
    try {
      routes.business(bad);
    } catch (e) {
      expect(e).toMatchObject({ status: 400, code: 'invalid_request' });
    }
  });

  it('appends encoded segments below a collection URL from a read', () => {
    const items = 'http://127.0.0.1:4010/v1/client-intake-applications/ciappl_a/repeatable-items/';
    expect(urlBelow(items, 'owners')).toBe(`${items}owners/`);
    expect(urlBelow(items, 'owners', 'ritem_1')).toBe(`${items}owners/ritem_1/`);
    expect(urlBelow(items, 'a/b?c')).toBe(`${items}a%2Fb%3Fc/`);
    for (const bad of ['..', '.', '']) expect(() => urlBelow(items, bad)).toThrow(PortalError);
    expect(() => urlBelow(`${items}?x=1`, 'owners')).toThrow(PortalError);
    expect(() => urlBelow('not a url', 'owners')).toThrow(PortalError);
  });
});

describe('ETags and Idempotency-Keys', () => {
  it('passes a complete ETag through verbatim, quotes and W/ included', () => {
    expect(ifMatchValue('"3-7"')).toBe('"3-7"');
    expect(ifMatchValue('W/"abc"')).toBe('W/"abc"');
    expect(isEtag('"cAbC_-"')).toBe(true);
  });

  it.each(['3-7', '"unterminated', '*', '"a"\r\nX-Evil: 1', 'W/abc', ''])('refuses %j as If-Match', (bad) => {
    expect(isEtag(bad)).toBe(false);
    expect(() => ifMatchValue(bad)).toThrow(PortalError);
  });

  it('mints unique keys and validates given ones', () => {
    const a = newIdempotencyKey();
    expect(a).not.toBe(newIdempotencyKey());
    expect(isIdempotencyKey(a)).toBe(true);
    expect(isIdempotencyKey('')).toBe(false);
    expect(isIdempotencyKey('has space')).toBe(false);
    expect(isIdempotencyKey('x'.repeat(256))).toBe(false);
  });
});

describe('retry policy', () => {
  it('parses Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });

  it('backs off exponentially with jitter in the upper half, capped', () => {
    expect(backoffMs(1, () => 0)).toBe(50);
    expect(backoffMs(1, () => 0.999)).toBeCloseTo(100, 0);
    expect(backoffMs(2, () => 0)).toBe(100);
    expect(backoffMs(20, () => 0.999)).toBeLessThanOrEqual(RETRY_POLICY.maxBackoffMs);
  });

  it('never waits less than Retry-After on a 429', () => {
    expect(rateLimitWaitMs(1, 2000, () => 0)).toBe(2000);
    expect(rateLimitWaitMs(1, 2000, () => 0.5)).toBe(2050);
    expect(rateLimitWaitMs(1, undefined, () => 0)).toBe(50);
  });

  it('repeats failures only for reads, commands with an Idempotency-Key and writes guarded by If-Match', () => {
    expect(repeatableAfterFailure('GET', {})).toBe(true);
    expect(repeatableAfterFailure('HEAD', {})).toBe(true);
    expect(repeatableAfterFailure('POST', {})).toBe(false);
    expect(repeatableAfterFailure('PATCH', {})).toBe(false);
    expect(repeatableAfterFailure('POST', { idempotencyKey: 'k1' })).toBe(true);
    expect(repeatableAfterFailure('PATCH', { ifMatch: '"3"' })).toBe(true);
    expect(repeatableAfterFailure('DELETE', { ifMatch: '"3"' })).toBe(true);
    expect(repeatableAfterFailure('DELETE', {})).toBe(false);
  });
});

describe('Content-Disposition', () => {
  it.each([
    ['statement.pdf', 'attachment; filename="statement.pdf"; filename*=UTF-8\'\'statement.pdf'],
    ['février 2024.csv', 'attachment; filename="f_vrier 2024.csv"; filename*=UTF-8\'\'f%C3%A9vrier%202024.csv'],
    ['a "quoted" (copy)*.txt', 'attachment; filename="a _quoted_ (copy)*.txt"; filename*=UTF-8\'\'a%20%22quoted%22%20%28copy%29%2A.txt'],
    ['C:\\fakepath\\report.pdf', 'attachment; filename="report.pdf"; filename*=UTF-8\'\'report.pdf'],
  ])('encodes %j per RFC 6266', (name, header) => {
    expect(contentDisposition(name)).toBe(header);
    expect(filenameFrom(header)).toBe(cleanFilename(name)); // the sandbox reads back the exact name
  });

  it('never produces an empty or header-breaking name', () => {
    expect(cleanFilename('')).toBe('file');
    expect(cleanFilename('../')).toBe('file');
    expect(contentDisposition('a\r\nb.txt')).toBe('attachment; filename="ab.txt"; filename*=UTF-8\'\'ab.txt');
  });
});

describe('toBrowserError', () => {
  it('passes upstream field details through with the Request-Id', () => {
    const e = new PortalError({
      status: 422,
      code: 'validation_failed',
      message: 'Invalid answers.',
      details: [{ code: 'too_long', message: 'At most 10 characters.', block_key: 'b', schema_key: 's', field_key: 'f' }],
      requestId: 'req_1',
      fromUpstream: true,
    });
    expect(toBrowserError(e)).toEqual({
      status: 422,
      headers: {},
      body: { error: { code: 'validation_failed', message: 'Invalid answers.', request_id: 'req_1', details: e.details } },
    });
  });

  it('turns a Portal 401 (our key) into a 502 and a Portal 5xx into a 502, keeping Retry-After on a 429', () => {
    expect(toBrowserError(new PortalError({ status: 401, code: 'unauthenticated', message: 'x', fromUpstream: true })).status).toBe(502);
    expect(toBrowserError(new PortalError({ status: 503, code: 'internal_error', message: 'x', fromUpstream: true })).status).toBe(502);
    const limited = toBrowserError(new PortalError({ status: 429, code: 'rate_limited', message: 'x', retryAfter: 30, fromUpstream: true }));
    expect(limited).toMatchObject({ status: 429, headers: { 'Retry-After': '30' } });
  });

  it('never shows a Portal URL, and hides anything that is not a PortalError', () => {
    const e = new PortalError({ status: 404, code: 'not_found', message: 'No operation at http://portal.internal:4010/v1/x/.', fromUpstream: true });
    expect(toBrowserError(e).body.error.message).toBe('No operation at [url]');
    expect(toBrowserError(new Error('db password wrong'))).toEqual({
      status: 500,
      headers: {},
      body: { error: { code: 'internal_error', message: 'Something went wrong on our side.', request_id: null, details: [] } },
    });
  });
});
