import { describe, expect, it } from 'vitest';
import { EnvError } from '@/server/env';
import { listenOrigin } from '@/server/env/listen-origin';
import { deeperThan, MAX_JSON_DEPTH } from '@/server/http/json-depth';
import { nextPath } from '@/server/http/next-path';
import { markProxied, passedProxy } from '@/server/http/proxy-mark';
import { admitStream, LIVE_STREAM_CAPS } from '@/server/live/stream-caps';
import { clip } from '@/server/log';

/* What the BFF makes of input nobody vouched for, one function at a time (the HTTP suites drive them whole). */

describe('nextPath', () => {
  it('keeps a path of this site, written so it fits a Location header', () => {
    expect(nextPath('/deals?business_id=biz_a#x')).toBe('/deals?business_id=biz_a#x');
    // U+3002 (ideographic full stop) went into the header raw: a 500.
    expect(nextPath('/\u3002/evil')).toBe('/%E3%80%82/evil');
    expect(nextPath('/caf\u00e9')).toBe('/caf%C3%A9');
    for (const v of [nextPath('/\u3002/evil'), nextPath('/a\u0001b'), nextPath('/\u00ff?\u00ff')]) expect(v).toMatch(/^[\x21-\x7e]+$/);
  });

  it('sends anything that leaves the site, or is no path, home', () => {
    for (const bad of ['//evil.example', '/\\evil.example', '/\t/evil.example', 'https://evil.example/', 'javascript:alert(1)', '', 'deals', undefined, ['/a']]) {
      expect(nextPath(bad), String(bad)).toBe('/');
    }
  });
});

describe('deeperThan', () => {
  it('finds nesting past the limit without parsing, whatever is inside strings', () => {
    expect(deeperThan('['.repeat(100_000) + ']'.repeat(100_000))).toBe(true);
    expect(deeperThan(`${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`)).toBe(false);
    expect(deeperThan(`${'{"a":'.repeat(MAX_JSON_DEPTH + 1)}1${'}'.repeat(MAX_JSON_DEPTH + 1)}`)).toBe(true);
    expect(deeperThan(JSON.stringify({ text: '['.repeat(10_000), quoted: '\\"[[[' }))).toBe(false);
    expect(deeperThan('{"a": "\\\\", "b": [[[]]]}', 2)).toBe(true);
    // Unbalanced or not JSON at all: JSON.parse says so afterwards.
    expect(deeperThan(']]]]')).toBe(false);
  });
});

describe('listenOrigin', () => {
  it('is the address the app listens on, a wildcard reached as localhost', () => {
    expect(listenOrigin({ HOST: '127.0.0.1', PORT: '3917' })).toBe('http://127.0.0.1:3917');
    expect(listenOrigin({})).toBe('http://localhost:3000');
    expect(listenOrigin({ HOST: '0.0.0.0', PORT: '80' })).toBe('http://localhost');
    expect(listenOrigin({ HOST: '::1', PORT: '3000' })).toBe('http://[::1]:3000');
    expect(listenOrigin({ HOST: 'intake.internal', PORT: '8080' })).toBe('http://intake.internal:8080');
  });

  it('names the variable when it cannot be an address', () => {
    const problem = (source: Record<string, string>) => {
      try {
        listenOrigin(source);
      } catch (e) {
        return e instanceof EnvError ? e.problems[0]?.variable : 'not an EnvError';
      }
      return null;
    };
    expect(problem({ PORT: '70000' })).toBe('PORT');
    expect(problem({ PORT: 'http' })).toBe('PORT');
    expect(problem({ HOST: 'evil.example/path' })).toBe('HOST');
    expect(problem({ HOST: 'user@evil.example' })).toBe('HOST');
  });
});

describe('clip', () => {
  it('keeps a short value and the start of a long one, with its length', () => {
    expect(clip('msg_1')).toBe('msg_1');
    expect(clip(null)).toBeNull();
    const long = clip('x'.repeat(15_000))!;
    expect(long.length).toBeLessThan(240);
    expect(long).toMatch(/^x{200}… \(15000 characters\)$/);
  });
});

describe('the proxy’s mark', () => {
  it('is believed only with the value this process stamped', () => {
    const forged = new Headers({ 'x-intake-proxied': '1' });
    expect(passedProxy(forged)).toBe(false);
    expect(passedProxy(new Headers())).toBe(false);
    const stamped = new Headers({ 'x-intake-proxied': '1' });
    markProxied(stamped);
    expect(passedProxy(stamped)).toBe(true);
  });
});

describe('admitStream', () => {
  it('holds a session and an address to their caps, and gives places back once', () => {
    const releases = Array.from({ length: LIVE_STREAM_CAPS.perSession }, () => admitStream('sid-caps', '192.0.2.10')!);
    expect(releases.every(Boolean)).toBe(true);
    expect(admitStream('sid-caps', '192.0.2.11')).toBeNull();
    releases[0]!();
    releases[0]!();
    const again = admitStream('sid-caps', '192.0.2.10');
    expect(again).not.toBeNull();
    expect(admitStream('sid-caps', null)).toBeNull();
    for (const r of [...releases, again!]) r();

    const perAddress = Array.from({ length: LIVE_STREAM_CAPS.perAddress }, (_, i) => admitStream(`sid-${Math.floor(i / 5)}`, '198.51.100.7')!);
    expect(perAddress.every(Boolean)).toBe(true);
    expect(admitStream('sid-fresh', '198.51.100.7')).toBeNull();
    expect(admitStream('sid-fresh', '198.51.100.8')).not.toBeNull();
    expect(admitStream('sid-fresh2', null)).not.toBeNull();
  });
});
