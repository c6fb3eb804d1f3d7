/**
 * The payroll (server/routes/WAGES.md): closing a month of 10 000 approved loads for 50 drivers — the close (every
 * load priced and stored in one transaction) against reading the same month (`GET /payroll/`, the same pricing
 * without storing), each with its peak heap — and the month's sheet («Ведомость», three sheets) streamed by
 * `GET /payroll/{company}/{month}/sheet` against the same workbook built in memory with exceljs and written to a
 * buffer.
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import ExcelJS from 'exceljs';
import { startTestServer } from '../tests/fixtures/server.ts';
import { makeCompany, makeUser, withAccessToken } from '../tests/fixtures/accounts.ts';
import { seededRandom } from '../tests/fixtures/random.ts';
import { closeAndWait } from '../tests/fixtures/payroll-close.ts';
import { nowIso } from '../server/db/connect.ts';
import { confirmedOf, type PayrollItems, type PayrollMonth, type WageItem } from '../contract/money.ts';
import { figure, round, type Benchmark, type SectionResult } from './support.ts';

const LOADS = 10_000;
const DRIVERS = 50;
const TASKS_PER_DRIVER = 10;

// A full collection before each measurement, so a peak is this work's and not the last one's garbage.
v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc') as () => void;

/** Runs `work` and samples the heap meanwhile: its time and the peak heap above where it started. */
async function measured<T>(work: () => Promise<T>): Promise<{ ms: number; peakMb: number; value: T }> {
  collect();
  const start = process.memoryUsage().heapUsed;
  let peak = start;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  }, 2);
  const t0 = performance.now();
  const value = await work();
  const ms = performance.now() - t0;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().heapUsed);
  return { ms, peakMb: (peak - start) / 1024 / 1024, value };
}

async function inMemorySheet(month: PayrollMonth, items: readonly (WageItem & { driver_name: string })[]): Promise<number> {
  const book = new ExcelJS.Workbook();
  const summary = book.addWorksheet('Ведомость');
  summary.addRow(['№', 'Водитель', 'Рейсов', 'Доставлено, т', 'За рейсы, ₽', 'Корректировки, ₽', 'К выплате, ₽']);
  month.drivers.forEach((d, i) => summary.addRow([i + 1, d.driver_name, d.loads, d.quantity, d.loads_amount, d.adjustments_amount, d.total_amount]));
  const loads = book.addWorksheet('Рейсы');
  loads.addRow(['Дата', 'Водитель', '№ задачи', '№ отчёта', 'Груз', 'Талон', 'Рейсов', 'Доставлено', 'Ставка, ₽', 'Откуда ставка', 'Объём месяца', 'Сумма, ₽']);
  for (const i of items) loads.addRow([new Date(`${i.date}T00:00:00Z`), i.driver_name, i.task_id, i.report_id, i.cargo, i.ticket_number, i.trips, i.quantity, i.rate, i.rate_source, i.month_volume, i.amount]);
  book.addWorksheet('Корректировки').addRow(['Дата', 'Водитель', 'Сумма, ₽', 'Причина']);
  const buffer = await book.xlsx.writeBuffer();
  return buffer.byteLength;
}

export const payroll: Benchmark = {
  id: 'payroll',
  title: `Payroll: closing a month of ${LOADS} loads for ${DRIVERS} drivers; its sheet streamed against exceljs in memory`,
  async run(): Promise<SectionResult> {
    const server = await startTestServer({ listen: false });
    try {
      const db = server.db.kysely;
      const random = seededRandom(19);
      const company = await makeCompany(server);
      const admin = await withAccessToken(server, await makeUser(server, 'admin', company));
      for (const [min, max, rate] of [[0, 100, 450], [100, 300, 480], [300, null, 520]] as const) {
        await db.insertInto('progressive_rates').values({ company_id: company, min_quantity: min, max_quantity: max, rate, created_at: nowIso() }).execute();
      }
      const now = nowIso();
      for (let d = 0; d < DRIVERS; d++) {
        const driver = await makeUser(server, 'driver', company, { name: `Водитель ${String(d + 1).padStart(2, '0')}` });
        for (let t = 0; t < TASKS_PER_DRIVER; t++) {
          const date = `2026-10-${String(1 + ((d + t * 3) % 28)).padStart(2, '0')}`;
          const task = await db
            .insertInto('tasks')
            .values({ company_id: company, created_by: admin.id, date, cargo: 'Щебень 5–20', loading_place: 'Карьер', unloading_place: 'Объект', planned_quantity: 400, unit: 'т', status: 'in_progress', rate: 650, comment: null, max_drivers: null, created_at: now, updated_at: now })
            .returning('id')
            .executeTakeFirstOrThrow();
          const association = await db
            .insertInto('task_drivers')
            .values({ task_id: task.id, driver_id: driver.id, quantity: null, status: 'in_progress', loading_quantity: null, unloading_quantity: null, transport_rate: d % 2 === 0 ? 470 : null, order_index: t, accepted_at: now, created_at: now })
            .returning('id')
            .executeTakeFirstOrThrow();
          const per = LOADS / DRIVERS / TASKS_PER_DRIVER;
          const rows = Array.from({ length: per }, (_, i) => ({
            association_id: association.id,
            driver_id: driver.id,
            quantity: Math.round((15 + random() * 5) * 10) / 10,
            total_loading_quantity: null,
            total_unloading_quantity: null,
            loading_is_buyer: 0 as const,
            unloading_is_buyer: 0 as const,
            idempotency_key: null,
            completed_at: now,
            created_at: now,
            updated_at: now,
            ticket_number: `Т-${d}-${t}-${i}`,
            review_status: 'approved' as const,
          }));
          await db.insertInto('reports').values(rows).execute();
        }
      }
      const inject = (method: 'GET' | 'POST', url: string, payload?: object) => server.app.inject({ method, url: `/api${url}`, headers: admin.auth, ...(payload ? { payload } : {}) });

      // Warm the paths once (module loads, statement caches), on another month.
      await inject('GET', '/payroll/?month=2026-09');
      const read = await measured(async () => (await inject('GET', '/payroll/?month=2026-10')).json() as PayrollMonth);
      if (read.value.loads !== LOADS) throw new Error(`expected ${LOADS} loads, got ${read.value.loads}`);
      // The close is a job (server/payroll/close-jobs.ts): started, then measured until done.
      const close = await measured(async () => {
        const res = await closeAndWait(server.app, admin.auth, { month: '2026-10', confirmed: confirmedOf(read.value) });
        if (res.statusCode !== 200) throw new Error(`close ${res.statusCode}: ${res.body}`);
        return res.close;
      });
      const closedRead = await measured(async () => (await inject('GET', '/payroll/?month=2026-10')).json() as PayrollMonth);
      if (closedRead.value.total_amount !== read.value.total_amount) throw new Error('the closed month differs from the open one');

      const streamed = await measured(async () => {
        const res = await inject('GET', `/payroll/${company}/2026-10/sheet`);
        if (res.statusCode !== 200) throw new Error(`sheet ${res.statusCode}`);
        return res.rawPayload.byteLength;
      });
      const month = closedRead.value;
      const items: (WageItem & { driver_name: string })[] = [];
      for (const d of month.drivers) {
        const answer = (await inject('GET', `/payroll/items?month=2026-10&driver_id=${d.driver_id}`)).json() as PayrollItems;
        items.push(...answer.items.map((i) => ({ ...i, driver_name: d.driver_name })));
      }
      const memory = await measured(() => inMemorySheet(month, items));

      return {
        ours: 'POST /payroll/close and its job until done (price + store); the sheet streamed by GET /payroll/{company}/{month}/sheet',
        baseline: 'GET /payroll/ of the same open month (price only); the same workbook built in memory with exceljs',
        figures: [
          figure(`close a month of ${LOADS} loads, ${DRIVERS} drivers`, 'ms', round(close.ms, 0), round(read.ms, 0), { note: 'close ÷ read of the open month' }),
          figure('close: peak heap above start', 'MB', round(close.peakMb, 1), round(read.peakMb, 1)),
          figure('read the closed month (stored lines)', 'ms', round(closedRead.ms, 0), round(read.ms, 0), { note: 'closed ÷ open' }),
          figure('sheet (3 sheets, every load)', 'ms', round(streamed.ms, 0), round(memory.ms, 0), { note: `${round(streamed.value / 1024, 0)} kB vs ${round(memory.value / 1024, 0)} kB` }),
          figure('sheet: peak heap above start', 'MB', round(streamed.peakMb, 1), round(memory.peakMb, 1), { goal: '≤ 1×', met: streamed.peakMb <= memory.peakMb }),
        ],
      };
    } finally {
      await server.close();
    }
  },
};
