/**
 * The online backup (`npm run backup`): taken while the server is open and writing, the copy is consistent
 * and restores — a server opened on the copy has every row written before the backup.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDb } from '../../server/db/connect.ts';
import { backupSqlite } from '../../server/db/backup.ts';
import { startTestServer } from '../fixtures/server.ts';
import { call, makeCompany, makeUser, login } from '../fixtures/accounts.ts';

describe('online backup of the SQLite file', () => {
  it('copies a consistent snapshot while the server writes, and the copy restores', async () => {
    const server = await startTestServer({ listen: false });
    try {
      const company = await makeCompany(server, 'Резервная копия');
      const admin = await makeUser(server, 'admin', company);
      const token = (await login(server, admin.email)).access_token;
      for (let i = 0; i < 20; i++) {
        expect((await call(server, 'POST', '/api/companies/', { token, body: { name: `Компания ${i}` } })).status).toBe(201);
      }
      const source = join(server.config.dataDir, 'reis.sqlite');
      const copy = join(server.config.dataDir, 'backups', 'copy.sqlite');
      // Writes keep coming while the backup runs.
      const writing = Promise.all(
        Array.from({ length: 10 }, (_, i) => call(server, 'POST', '/api/companies/', { token, body: { name: `Во время копии ${i}` } })),
      );
      const pages = await backupSqlite(source, copy);
      await writing;
      expect(pages).toBeGreaterThan(0);

      // Restoring is copying the file into place for a server to open.
      copyFileSync(copy, join(server.config.dataDir, 'restored.sqlite'));
      const restored = await openDb({ sqliteFile: join(server.config.dataDir, 'restored.sqlite') });
      try {
        const names = (await restored.kysely.selectFrom('companies').select('name').execute()).map((c) => c.name);
        expect(names).toContain('Резервная копия');
        for (let i = 0; i < 20; i++) expect(names).toContain(`Компания ${i}`);
        const check = await restored.kysely.selectFrom('users').select('email').where('id', '=', admin.id).executeTakeFirst();
        expect(check?.email).toBe(admin.email);
      } finally {
        await restored.close();
      }
    } finally {
      await server.close();
    }
  });
});
