/**
 * 100 000 tasks for the console benchmarks, written straight into a SQLite file with better-sqlite3 in one
 * transaction (seconds, not minutes): one company, ten drivers, one association per task, dates spread
 * over a year, cargo names from a short list so a search matches a known share.
 */
import SQLite from 'better-sqlite3';

export const CARGOS = ['Щебень гранитный 20–40', 'Песок карьерный', 'ПГС', 'Грунт растительный', 'Щебень известняковый 5–20', 'Асфальтобетон', 'Бетон М300', 'Глина'];

export function seedTasks(file: string, companyId: number, driverIds: readonly number[], count: number): void {
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  const insertTask = db.prepare(
    `insert into tasks (company_id, created_by, date, cargo, loading_place, unloading_place, planned_quantity, unit, status, rate, comment, created_at, updated_at)
     values (?, null, ?, ?, ?, ?, ?, 'т', ?, ?, null, ?, ?)`,
  );
  const insertAssociation = db.prepare(
    `insert into task_drivers (task_id, driver_id, status, order_index, quantity, transport_rate, accepted_at, created_at)
     values (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const start = Date.UTC(2025, 10, 1);
  const now = new Date().toISOString();
  db.transaction(() => {
    for (let i = 0; i < count; i += 1) {
      const date = new Date(start + (i % 365) * 86_400_000).toISOString().slice(0, 10);
      const status = i % 10 === 0 ? 'in_progress' : 'completed';
      const cargo = CARGOS[i % CARGOS.length] as string;
      const { lastInsertRowid } = insertTask.run(companyId, date, cargo, `Карьер №${i % 40}`, `Объект №${i % 300}`, 20 + (i % 60), status, 350 + (i % 5) * 10, now, now);
      insertAssociation.run(Number(lastInsertRowid), driverIds[i % driverIds.length], status === 'completed' ? 'completed' : 'accepted', i, 10 + (i % 15), 400, now, now);
    }
  })();
  db.close();
}
