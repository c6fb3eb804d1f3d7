/**
 * Creates a super-admin in the configured database (DATA_DIR or DATABASE_URL, as the server uses):
 *   node --import tsx server/create-admin.ts --email E --password P --name N [--phone T]
 * A database that was not seeded for the demo has no accounts; this is how the first one is made.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { loadConfig } from './config.ts';
import { openDb } from './db/connect.ts';
import { hashPassword } from './auth/passwords.ts';
import { createAccount } from './users/accounts.ts';
import { HttpError, zodDetail } from './errors.ts';

const argsSchema = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email({ message: 'некорректный e-mail' })),
  password: z.string().min(8, 'пароль должен быть не короче 8 символов'),
  name: z.string().trim().min(1, 'укажите имя'),
  phone: z.string().trim().optional(),
});

const { values } = parseArgs({
  options: { email: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' }, phone: { type: 'string' } },
});
const parsed = argsSchema.safeParse(values);
if (!parsed.success) {
  console.error(`Ошибка: ${zodDetail(parsed.error)}`);
  console.error('Использование: node --import tsx server/create-admin.ts --email E --password P --name N [--phone T]');
  process.exit(2);
}

const config = loadConfig();
const db = await openDb({ databaseUrl: config.databaseUrl, sqliteFile: join(config.dataDir, 'reis.sqlite'), sqliteBusyWaitMs: config.sqliteBusyWaitMs });
try {
  const id = await createAccount(db.kysely, {
    email: parsed.data.email,
    password_hash: await hashPassword(parsed.data.password),
    name: parsed.data.name,
    phone: parsed.data.phone,
    role: 'super-admin',
    company_id: null,
  });
  console.info(`Суперадминистратор ${parsed.data.email} создан (id ${id}).`);
} catch (e) {
  console.error(`Ошибка: ${e instanceof HttpError ? e.detail : String(e)}`);
  process.exitCode = 1;
} finally {
  await db.close();
}
