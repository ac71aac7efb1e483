import { describe, expect, it } from 'vitest';
import { DEFAULT_SCRYPT_PARAMS, hashPassword, needsRehash, passwordProblem, verifyPassword } from '@/server/auth/passwords';

describe('password hashing', () => {
  it('encodes scrypt$N$r$p$salt$hash with a 16-byte salt and the default cost', async () => {
    const encoded = await hashPassword('correct horse battery staple');
    const [scheme, N, r, p, salt, hash] = encoded.split('$');
    expect([scheme, N, r, p]).toEqual(['scrypt', '32768', '8', '1']);
    expect(Buffer.from(salt!, 'base64url')).toHaveLength(16);
    expect(Buffer.from(hash!, 'base64url')).toHaveLength(32);
    expect(DEFAULT_SCRYPT_PARAMS).toEqual({ N: 2 ** 15, r: 8, p: 1 });
  });

  it('verifies the right password and rejects a wrong one', async () => {
    const encoded = await hashPassword('correct horse battery staple');
    expect(await verifyPassword('correct horse battery staple', encoded)).toBe(true);
    expect(await verifyPassword('correct horse battery stapler', encoded)).toBe(false);
    expect(await verifyPassword('', encoded)).toBe(false);
  });

  it('salts: the same password hashes differently each time', async () => {
    const [a, b] = await Promise.all([hashPassword('same password here'), hashPassword('same password here')]);
    expect(a).not.toBe(b);
  });

  it('reads the cost from the encoding, so older hashes still verify and are flagged for rehash', async () => {
    const weak = await hashPassword('an older password', { N: 2 ** 10, r: 8, p: 1 });
    expect(weak.startsWith('scrypt$1024$8$1$')).toBe(true);
    expect(await verifyPassword('an older password', weak)).toBe(true);
    expect(needsRehash(weak)).toBe(true);
    expect(needsRehash(await hashPassword('a current password'))).toBe(false);
  });

  it('treats the same text in composed and decomposed Unicode as one password', async () => {
    const encoded = await hashPassword('caf\u00e9 au lait please');
    expect(await verifyPassword('cafe\u0301 au lait please', encoded)).toBe(true);
  });

  it('rejects malformed or abusive encodings without hashing', async () => {
    const good = await hashPassword('whatever password');
    const parts = good.split('$');
    const cases = [
      '',
      'plain-text-password',
      `bcrypt$${parts.slice(1).join('$')}`,
      ['scrypt', '1000', ...parts.slice(2)].join('$'), // N not a power of two
      ['scrypt', String(2 ** 30), ...parts.slice(2)].join('$'), // would need gigabytes
      ['scrypt', parts[1], '0', ...parts.slice(3)].join('$'),
      parts.slice(0, 5).join('$'),
    ];
    for (const encoded of cases) expect(await verifyPassword('whatever password', encoded)).toBe(false);
  });

  it('states the length policy for new passwords', () => {
    expect(passwordProblem('short')).toMatch(/at least 12/);
    expect(passwordProblem('x'.repeat(2000))).toMatch(/at most/);
    expect(passwordProblem('twelve chars')).toBeNull();
  });
});
