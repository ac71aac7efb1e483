import { describe, expect, it } from 'vitest';
import { appInstances } from '@/server/launcher/instances';

const PG = 'postgres://app@db.example/intake';

describe('APP_INSTANCES', () => {
  it('defaults to one per core on PostgreSQL, and to one on the embedded database or in dev', () => {
    expect(appInstances({ DATABASE_URL: PG }, false, 2)).toBe(2);
    expect(appInstances({ DATABASE_URL: 'postgresql://x/y' }, false, 4)).toBe(4);
    expect(appInstances({}, false, 2)).toBe(1);
    expect(appInstances({ DATABASE_URL: PG }, true, 2)).toBe(1);
  });

  it('takes an explicit count on PostgreSQL, and 1 anywhere', () => {
    expect(appInstances({ DATABASE_URL: PG, APP_INSTANCES: '3' }, false, 2)).toBe(3);
    expect(appInstances({ APP_INSTANCES: '1' }, false, 2)).toBe(1);
    expect(appInstances({ DATABASE_URL: PG, APP_INSTANCES: '1' }, true, 2)).toBe(1);
  });

  it('refuses what cannot work, naming the variable', () => {
    expect(() => appInstances({ APP_INSTANCES: '2' }, false, 2)).toThrow(/APP_INSTANCES.*DATABASE_URL/);
    expect(() => appInstances({ DATABASE_URL: PG, APP_INSTANCES: '2' }, true, 2)).toThrow(/APP_INSTANCES/);
    for (const bad of ['0', '-1', '1.5', 'two', '65']) expect(() => appInstances({ DATABASE_URL: PG, APP_INSTANCES: bad }, false, 2)).toThrow(/APP_INSTANCES/);
  });
});
