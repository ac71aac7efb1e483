import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb, EMBEDDED_DB_DIRNAME } from '@/server/db/create-db';
import { closeDb, getDb } from '@/server/db/get-db';
import { MIGRATIONS } from '@/server/db/migrations';
import { EmbeddedDbInUseError } from '@/server/db/pglite-lock';

// The embedded database on disk: the default when DATABASE_URL is not set.
describe('embedded database in DATA_DIR', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'intake-bff-embedded-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('persists in <dataDir>/bff-db, is locked while open, and migrates only once', async () => {
    const lockPath = join(dataDir, `${EMBEDDED_DB_DIRNAME}.lock`);
    const first = await createDb({ dataDir });
    try {
      expect(first.kind).toBe('pglite');
      expect(readFileSync(lockPath, 'utf8')).toBe(String(process.pid));
      await first.query(`INSERT INTO webhook_deliveries (id) VALUES ('persisted')`);
      await expect(createDb({ dataDir })).rejects.toBeInstanceOf(EmbeddedDbInUseError);
    } finally {
      await first.close();
    }
    expect(existsSync(lockPath)).toBe(false);

    const again = await createDb({ dataDir });
    try {
      expect(await again.query('SELECT id FROM webhook_deliveries')).toEqual([{ id: 'persisted' }]);
      // Each migration recorded once: reopening applied nothing a second time.
      expect(await again.query('SELECT version FROM schema_migrations ORDER BY version')).toEqual(MIGRATIONS.map((m) => ({ version: m.version })));
    } finally {
      await again.close();
    }
  });

  it('takes over a lock left by a process that no longer exists', async () => {
    const lockPath = join(dataDir, `${EMBEDDED_DB_DIRNAME}.lock`);
    writeFileSync(lockPath, '2147483646');
    const db = await createDb({ dataDir });
    await db.close();
    expect(existsSync(lockPath)).toBe(false);
  });

  it('getDb opens one database per process and reopens after closeDb', async () => {
    const dir = dataDir;
    const [a, b] = await Promise.all([getDb({ dataDir: dir }), getDb({ dataDir: dir })]);
    expect(a).toBe(b);
    expect(await getDb({ dataDir: dir })).toBe(a);
    await closeDb();
    const c = await getDb({ dataDir: dir });
    expect(c).not.toBe(a);
    await closeDb();
  });

  it('refuses a DATABASE_URL that is not PostgreSQL', async () => {
    await expect(createDb({ url: 'mysql://localhost/db' })).rejects.toThrow(/postgres:\/\//);
  });
});
