/**
 * The entry point of `npm start` (demo) and `npm run serve`: configuration, database (migrated at open),
 * the optional demo seed, then the API and the built PWA on HOST:PORT until SIGINT or SIGTERM.
 */
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { loadConfig } from './config.ts';
import { openDb } from './db/connect.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemo } from './db/seed.ts';
import { seedDemoTrips } from './db/seed-trips.ts';
import { buildApp } from './app.ts';

/**
 * How far V8 lets the heap grow past what the last full collection kept before collecting again: +50 % (V8's own
 * choice reaches +300 % when collections are cheap). The server keeps ~55 MB live; a long job that allocates as it
 * streams (a year's export, the payroll sheet) otherwise grew its RSS to ~4× that in garbage (+209 MB for a year's
 * export at three years' size, +60 MB so; docs/scale.md «The close as a job»). `HEAP_GROWING_PERCENT=0`: V8's own.
 */
const heapGrowingPercent = Number(process.env.HEAP_GROWING_PERCENT ?? 50);
if (Number.isInteger(heapGrowingPercent) && heapGrowingPercent > 0) setFlagsFromString(`--heap-growing-percent=${heapGrowingPercent}`);

const demo = process.argv.includes('--demo') || process.env.DEMO === '1';
const config = loadConfig(process.env, demo ? { demo: true } : {});
const db = await openDb({ databaseUrl: config.databaseUrl, sqliteFile: join(config.dataDir, 'reis.sqlite'), sqliteBusyWaitMs: config.sqliteBusyWaitMs });

const seeded = config.demo ? await seedDemo(db) : false;
const app = await buildApp({ config, db });
await app.listen({ port: config.port, host: config.host });
// A fresh demo gets today's trips stamped as phones would (server/db/seed-trips.ts).
if (seeded) await seedDemoTrips(app, db);

const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : join(config.dataDir, 'reis.sqlite');
console.info(`\nРейс: http://${config.host}:${config.port}  (база: ${where})`);
if (config.demo) {
  console.info(seeded ? 'Демо-данные загружены. Учётные записи:' : 'Демо-режим, база уже заполнена. Учётные записи:');
  const rows = [['e-mail', 'пароль', 'роль', 'имя'], ...DEMO_ACCOUNTS.map((a) => [a.email, DEMO_PASSWORD, a.role, a.name])];
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i]?.length ?? 0)));
  for (const r of rows) console.info('  ' + r.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  '));
}
const anyUser = await db.kysely.selectFrom('users').select('id').limit(1).executeTakeFirst();
if (!anyUser) {
  console.info(
    'В базе нет пользователей. Создайте первого суперадминистратора:\n' +
      '  node --import tsx server/create-admin.ts --email admin@example.ru --password <пароль> --name "Имя Фамилия"\n' +
      'или запустите демо: npm start',
  );
}

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.info(`\n${signal}: остановка сервера…`);
  // A connection that never finishes must not keep a stopping server alive for ever.
  setTimeout(() => {
    console.error('Сервер не остановился за 10 с, выход принудительно');
    process.exit(1);
  }, 10_000).unref();
  try {
    await app.close();
    await db.close();
    process.exit(0);
  } catch (e) {
    console.error('Ошибка при остановке', e);
    process.exit(1);
  }
}
process.once('SIGINT', () => void shutdown('SIGINT'));
process.once('SIGTERM', () => void shutdown('SIGTERM'));
