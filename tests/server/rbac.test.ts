/**
 * The whole RBAC matrix of docs/product.md §6 and §7 in one table: every call × seven callers — anonymous,
 * a driver, a manager and an admin of company A, a manager and an admin of company B, and the super-admin.
 * Every object a row touches belongs to company A (made afresh for each caller, so destructive calls never
 * collide), which makes company B's staff the "another company" column.
 *
 * A cell is `ok` (2xx), `ok*` (2xx, and the answer holds nothing of company A: a list scoped to the caller),
 * or the status the caller must get. Rows with input also carry one bad-input case, sent by a caller the row
 * allows: it must answer 400 with a Russian `detail`.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { call, login, makeCompany, makeUser, makeWorld, PASSWORD, type World } from '../fixtures/accounts.ts';
import { addDriver, createTask, dayFromToday, pendingTransfer } from '../fixtures/tasks.ts';
import { encodeForm, reportForm } from '../fixtures/forms.ts';
import { makeCounterparty, makePlace, makeVehicle, randomInn10, randomPlate } from '../fixtures/registers.ts';
import { makeTrip } from '../fixtures/statements.ts';
import { JPEG_8x6, PNG_8x6 } from '../fixtures/images.ts';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { DiskStorage } from '../../server/files/storage.ts';
import { nowIso } from '../../server/db/connect.ts';
import type { DriverStatus } from '../../contract/entities.ts';
import { hashToken } from '../../server/customer-links/links.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
export const CALLERS = ['anon', 'driver', 'manager', 'managerB', 'admin', 'adminB', 'super'] as const;
export type Caller = (typeof CALLERS)[number];

/** What a row's request needs: the server, the two companies and their people, and fresh fixtures of company A. */
export interface Ctx {
  s: TestServer;
  w: World;
  caller: Caller;
}

export interface Req {
  url: string;
  body?: unknown;
  /** A multipart body (reports). */
  form?: FormData;
}

export interface Row {
  call: string;
  method: Method;
  /** Cells in CALLERS order, e.g. '401 403 ok 404 ok 404 ok'. */
  matrix: string;
  make: (c: Ctx) => Promise<Req>;
  /** For `ok*` cells: whether the answer shows company A's object that `make` referred to. */
  showsA?: (body: unknown, c: Ctx, req: Req) => boolean;
  /** One bad input, sent by `badBy`: must answer 400 with a detail. */
  bad?: (c: Ctx) => Promise<Req>;
  badBy?: Caller;
}

const TOKEN_KEY: Record<Exclude<Caller, 'anon'>, keyof World['tokens']> = {
  driver: 'driver',
  manager: 'manager',
  managerB: 'managerB',
  admin: 'admin',
  adminB: 'adminB',
  super: 'super',
};

const uid = () => randomUUID().slice(0, 8);
const json = (value: unknown) => JSON.stringify(value);

/** A task of company A with company A's driver on it (status as given). */
async function taskWithDriver(c: Ctx, status: DriverStatus = 'accepted', quantity: number | null = null) {
  const task = await createTask(c.s, c.w.companyA, { date: dayFromToday(0) });
  const association = await addDriver(c.s, task, c.w.users.driver.id, { status, quantity });
  return { task, association };
}

/** A report by company A's driver on a fresh association, with one photo. */
async function reportOfA(c: Ctx) {
  const { task, association } = await taskWithDriver(c);
  const { payload, headers } = await encodeForm(
    reportForm({ association_id: association, quantity: '24.5', total_loading_quantity: '25' }, [{ data: JPEG_8x6, filename: 'a.jpg' }]),
  );
  const res = await c.s.app.inject({
    method: 'POST',
    url: '/api/reports/',
    payload,
    headers: { ...headers, authorization: `Bearer ${c.w.tokens.driver}`, 'idempotency-key': randomUUID() },
  });
  if (res.statusCode !== 201) throw new Error(`report fixture: ${res.statusCode} ${res.body}`);
  const report = res.json() as { id: number; photos: { id: number }[] };
  return { task, association, report: report.id, photo: report.photos[0]?.id as number };
}

const EXAMPLE_T1 = readFileSync(join(import.meta.dirname, '../fixtures/etrn-t1-shipper.xml'));

function incomingForm(bytes: Buffer): FormData {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'application/xml' }), 't1.xml');
  return form;
}

/** A title received for a trip of company A (stored as POST /etrn/incoming stores one). */
async function incomingOfA(c: Ctx): Promise<number> {
  const { report } = await reportOfA(c);
  const row = await c.s.db.kysely
    .insertInto('etrn_incoming')
    .values({ company_id: c.w.companyA, report_id: report, title: 't1', file_name: 't1.xml', file_id: `ON_TRNACLGROT_${uid()}`, file_date: '2026-11-27', file_time: '10:00:00', uid: null, signature: null, encoding: 'utf-8', xml: EXAMPLE_T1.toString('utf8'), linked_by: 'number', differences: '[]', received_by: null, created_at: nowIso() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** An empty trip sheet of company A's driver on a fresh vehicle, the year's newest (so it may be deleted). */
async function sheetOfA(c: Ctx): Promise<number> {
  const vehicle = await makeVehicle(c.s, c.w.companyA);
  const last = await c.s.db.kysely.selectFrom('trip_sheets').select((eb) => eb.fn.max('number').as('n')).where('company_id', '=', c.w.companyA).where('year', '=', 2026).executeTakeFirst();
  const row = await c.s.db.kysely
    .insertInto('trip_sheets')
    .values({ company_id: c.w.companyA, vehicle_id: vehicle, driver_id: c.w.users.driver.id, date: '2026-11-27', year: 2026, number: Number(last?.n ?? 0) + 1, created_at: nowIso(), updated_at: nowIso() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A signed per-shift acceptance by company A's driver, its signature stored: its id. */
async function signatureOfA(c: Ctx): Promise<number> {
  const key = await new DiskStorage(join(c.s.config.dataDir, 'files')).put('signatures', PNG_8x6, '.png');
  const row = await c.s.db.kysely
    .insertInto('trip_acceptances')
    .values({ driver_id: c.w.users.driver.id, key: randomUUID(), scope: 'shift', kind: 'signed', receiver_name: 'Прораб', receiver_position: null, signature_key: key, strokes: null, refused_reason: null, at: nowIso(), lat: null, lon: null, accuracy: null, created_at: nowIso() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Company A with an empty ladder, so a first band from 0 is always valid. */
async function emptyLadderOfA(c: Ctx): Promise<number> {
  await c.s.db.kysely.deleteFrom('progressive_rates').where('company_id', '=', c.w.companyA).execute();
  return c.w.companyA;
}

/** The only band of company A's ladder (an open one from 0), made afresh. */
async function bandOfA(c: Ctx): Promise<number> {
  await c.s.db.kysely.deleteFrom('progressive_rates').where('company_id', '=', c.w.companyA).execute();
  const row = await c.s.db.kysely
    .insertInto('progressive_rates')
    .values({ company_id: c.w.companyA, min_quantity: 0, max_quantity: null, rate: 450, created_at: nowIso() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Company A with no closed month and no close running (each caller closes afresh). */
async function openPayrollOfA(c: Ctx): Promise<number> {
  await c.s.app.payrollCloses.idle();
  await c.s.db.kysely.deleteFrom('payroll_closes').where('company_id', '=', c.w.companyA).execute();
  await c.s.db.kysely.deleteFrom('payroll_lines').where('company_id', '=', c.w.companyA).execute();
  await c.s.db.kysely.deleteFrom('payroll_drivers').where('company_id', '=', c.w.companyA).execute();
  await c.s.db.kysely.deleteFrom('payroll_months').where('company_id', '=', c.w.companyA).execute();
  return c.w.companyA;
}

/** A finished close of company A's September (the job's row). */
async function closeOfA(c: Ctx): Promise<number> {
  const row = await c.s.db.kysely
    .insertInto('payroll_closes')
    .values({ company_id: c.w.companyA, month: '2026-09', status: 'done', confirmed: '{}', user_id: c.w.users.admin.id, started_at: nowIso(), finished_at: nowIso() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Company A with September 2026 closed. */
async function closedSeptemberOfA(c: Ctx): Promise<number> {
  await openPayrollOfA(c);
  await c.s.db.kysely
    .insertInto('payroll_months')
    .values({ company_id: c.w.companyA, month: '2026-09', status: 'closed', closed_at: nowIso(), closed_by: null, loads: 0, quantity: 0, amount_kop: 0, adjustments_kop: 0 })
    .execute();
  return c.w.companyA;
}

/** A finished export of company A with a real file, and the query string of its /table link. */
async function tableLinkOfA(c: Ctx): Promise<string> {
  const job = await exportJobOfA(c);
  const workbook = new ExcelJS.Workbook();
  workbook.addWorksheet('Задачи').addRow(['Дата', 'Груз']);
  const storage = new DiskStorage(join(c.s.config.dataDir, 'files'));
  const key = await storage.put('exports', Buffer.from(await workbook.xlsx.writeBuffer()), '.xlsx');
  await c.s.db.kysely.updateTable('export_jobs').set({ status: 'done', storage_key: key, finished_at: nowIso() }).where('id', '=', job).execute();
  const link = await call(c.s, 'POST', `/api/tasks/completed/export/${job}/table-link`, { token: c.w.tokens.manager });
  return new URL(link.body.url as string, 'http://x').search;
}

/** A pending transfer between company A and a third company: A sends it, or (incoming) A receives it. */
async function transferOfA(c: Ctx, incoming = false): Promise<number> {
  const third = await makeCompany(c.s);
  const from = incoming ? third : c.w.companyA;
  const to = incoming ? c.w.companyA : third;
  const task = await createTask(c.s, from, { planned_quantity: 100 });
  return pendingTransfer(c.s, task, from, to);
}

/** An announcement of company A (asking for a response), and optionally its driver's pending response. */
async function announcementOfA(c: Ctx): Promise<number> {
  const row = await c.s.db.kysely
    .insertInto('announcements')
    .values({ company_id: c.w.companyA, author_id: c.w.users.manager.id, title: 'Объявление', body: 'Текст', requires_response: 1, created_at: nowIso() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function responseOfA(c: Ctx): Promise<number> {
  const row = await c.s.db.kysely
    .insertInto('announcement_responses')
    .values({ announcement_id: await announcementOfA(c), user_id: c.w.users.driver.id, text: 'Буду', status: 'pending', created_at: nowIso(), decided_at: null, decided_by: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function exportJobOfA(c: Ctx): Promise<number> {
  const res = await call(c.s, 'POST', '/api/tasks/completed/export', { token: c.w.tokens.manager, body: {} });
  if (res.status !== 202) throw new Error(`export fixture: ${res.status}`);
  return res.body.id as number;
}

async function registrationOfA(c: Ctx): Promise<number> {
  const res = await call(c.s, 'POST', '/api/registration-requests/', {
    body: { email: `r-${uid()}@test.local`, password: 'password-1', name: 'Заявитель', phone: '+7 900 333-22-11', company_id: c.w.companyA },
  });
  if (res.status !== 201) throw new Error(`registration fixture: ${res.status}`);
  return res.body.id as number;
}

const idsOf = (body: unknown): number[] => {
  const list = Array.isArray(body) ? body : ((body as { items?: unknown[] }).items ?? []);
  return list.map((item) => (item as { id: number }).id);
};
/** `showsA` for a list that must not hold the id the request's URL or fixture named. */
const listHolds = (id: (c: Ctx) => number) => (body: unknown, c: Ctx) => idsOf(body).includes(id(c));

/** A register list asked by the super-admin names company A. */
const forSuper = (c: Ctx) => (c.caller === 'super' ? `&company_id=${c.w.companyA}` : '');
/** `showsA` for a register page: it holds a card of company A. */
const holdsCompanyA = (body: unknown, c: Ctx) => ((body as { items?: { company_id: number }[] }).items ?? []).some((i) => i.company_id === c.w.companyA);

/** Rows beyond the auth area share these. */
const driverA = (c: Ctx) => c.w.users.driver.id;

const TEMPLATE_FIELDS = { cargo: 'Щебень', loading_place: 'Карьер', unloading_place: 'Объект', planned_quantity: 30, unit: 'т' };

async function templateOfA(c: Ctx): Promise<number> {
  const now = nowIso();
  const row = await c.s.db.kysely
    .insertInto('task_templates')
    .values({ company_id: c.w.companyA, name: `Шаблон ${randomUUID()}`, fields: JSON.stringify(TEMPLATE_FIELDS), created_by: null, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** A one-row task file, different each time (a file is imported once per company). */
async function importFile(): Promise<string> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Задачи');
  sheet.addRow(['дата', 'груз', 'место погрузки', 'место выгрузки', 'объём', 'комментарий']);
  sheet.addRow(['05.12.2026', 'Песок', 'Карьер', 'Объект', 20, randomUUID()]);
  return Buffer.from(await book.xlsx.writeBuffer()).toString('base64');
}

export const ROWS: Row[] = [
  // ── Auth ──
  {
    call: 'POST /auth/login/',
    method: 'POST',
    matrix: 'ok ok ok ok ok ok ok',
    make: async (c) => ({ url: '/api/auth/login/', body: { username: c.w.users.driver.email, password: PASSWORD, device_id: `d-${uid()}` } }),
    bad: async () => ({ url: '/api/auth/login/', body: { username: '', password: PASSWORD } }),
    badBy: 'anon',
  },
  {
    call: 'POST /auth/refresh/',
    method: 'POST',
    matrix: 'ok ok ok ok ok ok ok',
    make: async (c) => ({ url: '/api/auth/refresh/', body: { refresh_token: (await login(c.s, c.w.users.manager.email)).refresh_token } }),
    bad: async () => ({ url: '/api/auth/refresh/', body: { refresh_token: 42 } }),
    badBy: 'anon',
  },
  {
    call: 'POST /auth/logout/',
    method: 'POST',
    matrix: 'ok ok ok ok ok ok ok',
    make: async (c) => ({ url: '/api/auth/logout/', body: { refresh_token: (await login(c.s, c.w.users.manager.email)).refresh_token } }),
    bad: async () => ({ url: '/api/auth/logout/', body: { refresh_token: ['x'] } }),
    badBy: 'anon',
  },
  { call: 'GET /auth/roles/', method: 'GET', matrix: '401 ok ok ok ok ok ok', make: async () => ({ url: '/api/auth/roles/' }) },

  // ── Users ──
  {
    call: 'POST /users/',
    method: 'POST',
    matrix: 'ok ok ok ok ok ok ok',
    make: async (c) => ({
      url: '/api/users/',
      body: { email: `u-${uid()}@test.local`, password: 'password-1', name: 'Новый', phone: '+7 900 111-22-33', company_id: c.w.companyA },
    }),
    bad: async (c) => ({ url: '/api/users/', body: { email: 'not-an-email', password: 'password-1', name: 'Новый', phone: '+7 900 111-22-33', company_id: c.w.companyA } }),
    badBy: 'anon',
  },
  { call: 'GET /users/me/', method: 'GET', matrix: '401 ok ok ok ok ok ok', make: async () => ({ url: '/api/users/me/' }) },
  {
    call: 'PUT /users/me/',
    method: 'PUT',
    matrix: '401 ok ok ok ok ok ok',
    make: async () => ({ url: '/api/users/me/', body: { phone: '+7 900 123-45-67' } }),
    bad: async () => ({ url: '/api/users/me/', body: { phone: 12345 } }),
    badBy: 'manager',
  },
  { call: 'GET /users/me/transports/', method: 'GET', matrix: '401 ok ok ok ok ok ok', make: async () => ({ url: '/api/users/me/transports/' }) },
  {
    // Only one's own vehicle can be made current: company A's driver's vehicle is nobody else's.
    call: 'PUT /users/me/transport/{id}/',
    method: 'PUT',
    matrix: '401 ok 404 404 404 404 404',
    make: async (c) => {
      const vehicle = await c.s.db.kysely.selectFrom('transports').select('id').where('user_id', '=', driverA(c)).executeTakeFirstOrThrow();
      return { url: `/api/users/me/transport/${vehicle.id}/` };
    },
    bad: async () => ({ url: '/api/users/me/transport/abc/' }),
    badBy: 'driver',
  },
  {
    call: 'GET /users/drivers/',
    method: 'GET',
    matrix: '401 403 ok ok* ok ok* ok',
    make: async () => ({ url: '/api/users/drivers/' }),
    showsA: listHolds(driverA),
    bad: async () => ({ url: '/api/users/drivers/?include_inactive=maybe' }),
    badBy: 'manager',
  },
  {
    // Company B's staff may not add a driver to company A (companies are public by name: 403, not 404).
    call: 'POST /users/drivers/',
    method: 'POST',
    matrix: '401 403 ok 403 ok 403 ok',
    make: async (c) => ({
      url: '/api/users/drivers/',
      body: { email: `d-${uid()}@test.local`, password: 'password-1', name: 'Новый', phone: '+7 900 000-11-22', company_id: c.w.companyA },
    }),
    bad: async (c) => ({ url: '/api/users/drivers/', body: { email: `d-${uid()}@test.local`, password: 'short', name: 'Новый', phone: '+7 900 000-11-22', company_id: c.w.companyA } }),
    badBy: 'manager',
  },
  {
    call: 'PUT /users/drivers/{id}/',
    method: 'PUT',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/users/drivers/${driverA(c)}/`, body: { phone: '+7 900 765-43-21' } }),
    bad: async (c) => ({ url: `/api/users/drivers/${driverA(c)}/`, body: { vehicle_capacity: -3 } }),
    badBy: 'manager',
  },
  {
    call: 'DELETE /users/drivers/{id}/',
    method: 'DELETE',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/users/drivers/${(await makeUser(c.s, 'driver', c.w.companyA)).id}/` }),
    bad: async () => ({ url: '/api/users/drivers/0/' }),
    badBy: 'manager',
  },

  // ── Tasks ──
  {
    call: 'GET /tasks/completed/',
    method: 'GET',
    matrix: '401 403 ok ok* ok ok* ok',
    make: async (c) => {
      const cargo = `Груз ${uid()}`;
      await createTask(c.s, c.w.companyA, { cargo });
      return { url: `/api/tasks/completed/?status=all&search=${encodeURIComponent(cargo)}` };
    },
    showsA: (body) => idsOf(body).length > 0,
    bad: async () => ({ url: '/api/tasks/completed/?limit=-1' }),
    badBy: 'manager',
  },
  {
    call: 'GET /tasks/available/',
    method: 'GET',
    matrix: '401 ok 403 403 403 403 403',
    make: async () => ({ url: '/api/tasks/available/' }),
    bad: async () => ({ url: '/api/tasks/available/?date=31.12.2026' }),
    badBy: 'driver',
  },
  {
    // Company B's staff may not create a task in company A (companies are public by name: 403, not 404).
    call: 'POST /tasks/',
    method: 'POST',
    matrix: '401 403 ok 403 ok 403 ok',
    make: async (c) => ({
      url: '/api/tasks/',
      body: { company_id: c.w.companyA, date: dayFromToday(1), cargo: 'Песок', loading_place: 'Карьер', unloading_place: 'Стройка', planned_quantity: 40 },
    }),
    bad: async (c) => ({ url: '/api/tasks/', body: { company_id: c.w.companyA, date: '2026-02-30', cargo: 'Песок', loading_place: 'Карьер', unloading_place: 'Стройка', planned_quantity: 40 } }),
    badBy: 'super',
  },
  {
    // A driver changes their own status on the task; staff edit the task.
    call: 'PUT /tasks/{id}/',
    method: 'PUT',
    matrix: '401 ok ok 404 ok 404 ok',
    make: async (c) => {
      const { task } = await taskWithDriver(c);
      return { url: `/api/tasks/${task}/`, body: c.caller === 'driver' ? { status: 'in_progress' } : { cargo: 'Песок мытый' } };
    },
    bad: async (c) => ({ url: `/api/tasks/${(await taskWithDriver(c)).task}/`, body: { status: 'flying' } }),
    badBy: 'manager',
  },
  {
    call: 'DELETE /tasks/{id}/',
    method: 'DELETE',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/tasks/${await createTask(c.s, c.w.companyA)}/` }),
    bad: async () => ({ url: '/api/tasks/-5/' }),
    badBy: 'manager',
  },
  {
    call: 'PUT /tasks/{id}/accept/',
    method: 'PUT',
    matrix: '401 ok 403 403 403 403 403',
    make: async (c) => ({ url: `/api/tasks/${await createTask(c.s, c.w.companyA, { date: dayFromToday(0) })}/accept/` }),
    bad: async () => ({ url: '/api/tasks/x/accept/' }),
    badBy: 'driver',
  },
  {
    call: 'PUT /tasks/{id}/drivers/{driverId}/',
    method: 'PUT',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/tasks/${await createTask(c.s, c.w.companyA)}/drivers/${driverA(c)}/?quantity=10` }),
    bad: async (c) => ({ url: `/api/tasks/${await createTask(c.s, c.w.companyA)}/drivers/${driverA(c)}/?status_param=lost` }),
    badBy: 'manager',
  },
  {
    call: 'DELETE /tasks/{id}/drivers/{driverId}/',
    method: 'DELETE',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/tasks/${(await taskWithDriver(c)).task}/drivers/${driverA(c)}/` }),
    bad: async (c) => ({ url: `/api/tasks/${(await taskWithDriver(c)).task}/drivers/abc/` }),
    badBy: 'manager',
  },
  {
    call: 'PUT /tasks/{id}/drivers/{driverId}/quantity/',
    method: 'PUT',
    matrix: '401 ok ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/tasks/${(await taskWithDriver(c)).task}/drivers/${driverA(c)}/quantity/`, body: { quantity: 10 } }),
    bad: async (c) => ({ url: `/api/tasks/${(await taskWithDriver(c)).task}/drivers/${driverA(c)}/quantity/`, body: { quantity: -1 } }),
    badBy: 'driver',
  },
  {
    call: 'GET /tasks/drivers/{id}/tasks',
    method: 'GET',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/tasks/drivers/${driverA(c)}/tasks?date=${dayFromToday(0)}` }),
    bad: async (c) => ({ url: `/api/tasks/drivers/${driverA(c)}/tasks?date=today` }),
    badBy: 'manager',
  },
  {
    call: 'PUT /tasks/drivers/{id}/tasks/order',
    method: 'PUT',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/tasks/drivers/${driverA(c)}/tasks/order`, body: { task_ids: [(await taskWithDriver(c)).task] } }),
    bad: async (c) => ({ url: `/api/tasks/drivers/${driverA(c)}/tasks/order`, body: { task_ids: [] } }),
    badBy: 'manager',
  },
  { call: 'GET /tasks/assigned/', method: 'GET', matrix: '401 ok 403 403 403 403 403', make: async () => ({ url: '/api/tasks/assigned/' }) },
  {
    call: 'GET /tasks/driver/completed',
    method: 'GET',
    matrix: '401 ok 403 403 403 403 403',
    make: async () => ({ url: '/api/tasks/driver/completed' }),
    bad: async () => ({ url: '/api/tasks/driver/completed?limit=zero' }),
    badBy: 'driver',
  },
  {
    call: 'GET /tasks/bulk',
    method: 'GET',
    matrix: '401 ok ok ok* ok ok* ok',
    make: async (c) => ({ url: `/api/tasks/bulk?ids=${(await taskWithDriver(c)).task}` }),
    showsA: (body) => idsOf(body).length > 0,
    bad: async () => ({ url: '/api/tasks/bulk?ids=1,two' }),
    badBy: 'manager',
  },

  // ── Export ──
  {
    call: 'POST /tasks/completed/export',
    method: 'POST',
    matrix: '401 403 ok ok ok ok ok',
    make: async () => ({ url: '/api/tasks/completed/export', body: { status: 'all' } }),
    bad: async () => ({ url: '/api/tasks/completed/export', body: { date_from: '2026-13-01' } }),
    badBy: 'manager',
  },
  {
    call: 'GET /tasks/completed/export/{id}',
    method: 'GET',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/tasks/completed/export/${await exportJobOfA(c)}` }),
    bad: async () => ({ url: '/api/tasks/completed/export/none' }),
    badBy: 'manager',
  },
  {
    call: 'GET /tasks/completed/export/{id}/download',
    method: 'GET',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/tasks/completed/export/${await exportJobOfA(c)}/download` }),
  },

  // ── Reports ──
  {
    call: 'POST /reports/',
    method: 'POST',
    matrix: '401 ok 403 403 403 403 403',
    make: async (c) => ({ url: '/api/reports/', form: reportForm({ association_id: (await taskWithDriver(c)).association, quantity: '20' }) }),
    bad: async (c) => ({ url: '/api/reports/', form: reportForm({ association_id: (await taskWithDriver(c)).association, quantity: 'много' }) }),
    badBy: 'driver',
  },
  {
    call: 'PUT /reports/{id}',
    method: 'PUT',
    matrix: '401 ok ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/reports/${(await reportOfA(c)).report}`, body: { quantity: 20 } }),
    bad: async (c) => ({ url: `/api/reports/${(await reportOfA(c)).report}`, body: { quantity: 'двадцать' } }),
    badBy: 'manager',
  },
  {
    call: 'DELETE /reports/{id}',
    method: 'DELETE',
    matrix: '401 ok ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/reports/${(await reportOfA(c)).report}` }),
  },
  {
    call: 'DELETE /reports/{id}/photo',
    method: 'DELETE',
    matrix: '401 ok ok 404 ok 404 ok',
    make: async (c) => {
      const r = await reportOfA(c);
      return { url: `/api/reports/${r.report}/photo?photo_id=${r.photo}` };
    },
    bad: async (c) => ({ url: `/api/reports/${(await reportOfA(c)).report}/photo?photo_id=first` }),
    badBy: 'manager',
  },
  {
    call: 'GET /reports/{id}/photos',
    method: 'GET',
    matrix: '401 ok ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/reports/${(await reportOfA(c)).report}/photos?mode=all` }),
    bad: async (c) => ({ url: `/api/reports/${(await reportOfA(c)).report}/photos?mode=some` }),
    badBy: 'manager',
  },
  {
    call: 'GET /reports/association/{id}',
    method: 'GET',
    matrix: '401 ok ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/reports/association/${(await reportOfA(c)).association}` }),
  },
  {
    call: 'GET /reports/disputed/',
    method: 'GET',
    matrix: '401 ok 403 403 403 403 403',
    make: async () => ({ url: '/api/reports/disputed/' }),
  },
  {
    call: 'POST /reports/daily_hours/',
    method: 'POST',
    matrix: '401 ok 403 403 403 403 403',
    make: async () => ({ url: '/api/reports/daily_hours/', body: { date: dayFromToday(0), hours: 8 } }),
    bad: async () => ({ url: '/api/reports/daily_hours/', body: { date: dayFromToday(0), hours: 25 } }),
    badBy: 'driver',
  },

  // ── Trips (docs/trips.md) ──
  {
    call: 'PUT /trips/{trip_uid}/steps/{step}',
    method: 'PUT',
    matrix: '401 ok 403 403 403 403 403',
    make: async (c) => ({ url: `/api/trips/${randomUUID()}/steps/loading_arrived`, body: { association_id: (await taskWithDriver(c)).association, at: nowIso() } }),
    bad: async (c) => ({ url: `/api/trips/${randomUUID()}/steps/lunch`, body: { association_id: (await taskWithDriver(c)).association, at: nowIso() } }),
    badBy: 'driver',
  },
  {
    call: 'POST /trips/acceptance',
    method: 'POST',
    matrix: '401 ok 403 403 403 403 403',
    make: async () => ({ url: '/api/trips/acceptance', body: { key: randomUUID(), trip_uids: [randomUUID()], at: nowIso(), acceptance: { kind: 'refused', reason: 'Получатель отказался' } } }),
    bad: async () => ({ url: '/api/trips/acceptance', body: { key: randomUUID(), trip_uids: [], at: nowIso(), acceptance: { kind: 'refused', reason: 'Получатель отказался' } } }),
    badBy: 'driver',
  },
  {
    call: 'GET /tasks/trip-days/',
    method: 'GET',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/tasks/trip-days/?start_date=${dayFromToday(0)}&end_date=${dayFromToday(0)}&company_id=${c.w.companyA}` }),
    bad: async (c) => ({ url: `/api/tasks/trip-days/?start_date=${dayFromToday(1)}&end_date=${dayFromToday(0)}&company_id=${c.w.companyA}` }),
    badBy: 'manager',
  },
  {
    call: 'GET /trips/acceptance/{id}/signature',
    method: 'GET',
    matrix: '401 ok ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/trips/acceptance/${await signatureOfA(c)}/signature` }),
    bad: async () => ({ url: '/api/trips/acceptance/first/signature' }),
  },

  // ── Companies ──
  { call: 'GET /companies/', method: 'GET', matrix: 'ok ok ok ok ok ok ok', make: async () => ({ url: '/api/companies/' }) },
  {
    call: 'POST /companies/',
    method: 'POST',
    matrix: '401 403 403 403 ok ok ok',
    make: async () => ({ url: '/api/companies/', body: { name: `Компания ${uid()}` } }),
    bad: async () => ({ url: '/api/companies/', body: { name: '   ' } }),
    badBy: 'admin',
  },
  {
    // Companies are public by name, so renaming another one is forbidden (403), not hidden.
    call: 'PUT /companies/{id}',
    method: 'PUT',
    matrix: '401 403 403 403 ok 403 ok',
    make: async (c) => ({ url: `/api/companies/${c.w.companyA}`, body: { name: `Переименована ${uid()}` } }),
    bad: async (c) => ({ url: `/api/companies/${c.w.companyA}`, body: { name: 'x'.repeat(201) } }),
    badBy: 'admin',
  },
  {
    call: 'DELETE /companies/{id}',
    method: 'DELETE',
    matrix: '401 403 403 403 403 403 ok',
    make: async (c) => ({ url: `/api/companies/${await makeCompany(c.s)}` }),
    bad: async () => ({ url: '/api/companies/first' }),
    badBy: 'super',
  },
  {
    call: 'POST /companies/{id}/users/',
    method: 'POST',
    matrix: '401 403 403 403 ok 403 ok',
    make: async (c) => ({ url: `/api/companies/${c.w.companyA}/users/`, body: { user_id: (await makeUser(c.s, 'driver', null)).id } }),
    bad: async (c) => ({ url: `/api/companies/${c.w.companyA}/users/`, body: { user_id: 'me' } }),
    badBy: 'admin',
  },

  // ── Transfers ──
  {
    call: 'POST /transfers/',
    method: 'POST',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: '/api/transfers/', body: { task_id: await createTask(c.s, c.w.companyA), to_company_id: await makeCompany(c.s), quantity: 10 } }),
    bad: async (c) => ({ url: '/api/transfers/', body: { task_id: await createTask(c.s, c.w.companyA), to_company_id: c.w.companyB, quantity: -5 } }),
    badBy: 'manager',
  },
  {
    call: 'GET /transfers/',
    method: 'GET',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/transfers/?to_company_id=${c.w.companyA}&t=${await transferOfA(c, true)}` }),
    bad: async () => ({ url: '/api/transfers/?direction=sideways' }),
    badBy: 'manager',
  },
  {
    call: 'PUT /transfers/{id}',
    method: 'PUT',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/transfers/${await transferOfA(c)}`, body: { quantity: 30 } }),
    bad: async (c) => ({ url: `/api/transfers/${await transferOfA(c)}`, body: { quantity: 'тридцать' } }),
    badBy: 'manager',
  },
  {
    call: 'DELETE /transfers/{id}',
    method: 'DELETE',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/transfers/${await transferOfA(c)}` }),
    bad: async () => ({ url: '/api/transfers/x1' }),
    badBy: 'manager',
  },
  {
    call: 'POST /transfers/{id}/accept',
    method: 'POST',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/transfers/${await transferOfA(c, true)}/accept` }),
    bad: async () => ({ url: '/api/transfers/0/accept' }),
    badBy: 'manager',
  },
  {
    call: 'POST /transfers/{id}/decline',
    method: 'POST',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/transfers/${await transferOfA(c, true)}/decline`, body: { reason: 'Нет машин' } }),
    bad: async (c) => ({ url: `/api/transfers/${await transferOfA(c, true)}/decline`, body: { reason: '' } }),
    badBy: 'manager',
  },
  {
    call: 'GET /transfers/carrier-task/{id}',
    method: 'GET',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/transfers/carrier-task/${await transferOfA(c)}` }),
    bad: async () => ({ url: '/api/transfers/carrier-task/-1' }),
    badBy: 'manager',
  },

  // ── Registration requests ──
  {
    call: 'GET /registration-requests/',
    method: 'GET',
    matrix: '401 403 ok ok* ok ok* ok',
    make: async (c) => ({ url: `/api/registration-requests/?r=${await registrationOfA(c)}` }),
    showsA: (body, _c, req) => idsOf(body).includes(Number(new URL(req.url, 'http://x').searchParams.get('r'))),
  },
  {
    call: 'POST /registration-requests/',
    method: 'POST',
    matrix: 'ok ok ok ok ok ok ok',
    make: async (c) => ({
      url: '/api/registration-requests/',
      body: { email: `r-${uid()}@test.local`, password: 'password-1', name: 'Заявитель', phone: '+7 900 333-22-11', company_id: c.w.companyA },
    }),
    bad: async (c) => ({ url: '/api/registration-requests/', body: { email: `r-${uid()}@test.local`, password: 'password-1', name: '', phone: '+7 900 333-22-11', company_id: c.w.companyA } }),
    badBy: 'anon',
  },
  {
    call: 'POST /registration-requests/{id}/approve',
    method: 'POST',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/registration-requests/${await registrationOfA(c)}/approve` }),
    bad: async () => ({ url: '/api/registration-requests/0/approve' }),
    badBy: 'manager',
  },
  {
    call: 'POST /registration-requests/{id}/reject',
    method: 'POST',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/registration-requests/${await registrationOfA(c)}/reject`, body: { reason: 'Не наш водитель' } }),
    bad: async (c) => ({ url: `/api/registration-requests/${await registrationOfA(c)}/reject`, body: { reason: '   ' } }),
    badBy: 'manager',
  },

  // ── Announcements ──
  {
    call: 'GET /announcements/',
    method: 'GET',
    matrix: '401 ok ok ok* ok ok* ok',
    make: async (c) => ({ url: `/api/announcements/?a=${await announcementOfA(c)}` }),
    showsA: (body, _c, req) => idsOf(body).includes(Number(new URL(req.url, 'http://x').searchParams.get('a'))),
    bad: async () => ({ url: '/api/announcements/?company_id=all' }),
    badBy: 'super',
  },
  {
    call: 'POST /announcements/',
    method: 'POST',
    matrix: '401 403 ok 403 ok 403 ok',
    make: async (c) => ({ url: '/api/announcements/', body: { title: 'Техосмотр', body: 'В пятницу', company_id: c.w.companyA } }),
    bad: async () => ({ url: '/api/announcements/', body: { title: '', body: 'В пятницу' } }),
    badBy: 'manager',
  },
  {
    call: 'DELETE /announcements/{id}',
    method: 'DELETE',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/announcements/${await announcementOfA(c)}` }),
    bad: async () => ({ url: '/api/announcements/01' }),
    badBy: 'manager',
  },
  {
    call: 'POST /announcements/{id}/responses',
    method: 'POST',
    matrix: '401 ok 403 403 403 403 403',
    make: async (c) => ({ url: `/api/announcements/${await announcementOfA(c)}/responses`, body: { text: 'Буду' } }),
    bad: async (c) => ({ url: `/api/announcements/${await announcementOfA(c)}/responses`, body: { text: 42 } }),
    badBy: 'driver',
  },
  {
    call: 'GET /announcements/responses/pending',
    method: 'GET',
    matrix: '401 403 ok ok* ok ok* ok',
    make: async (c) => ({ url: `/api/announcements/responses/pending?r=${await responseOfA(c)}` }),
    showsA: (body, _c, req) => idsOf(body).includes(Number(new URL(req.url, 'http://x').searchParams.get('r'))),
  },
  {
    call: 'POST /announcements/responses/{id}/confirm',
    method: 'POST',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/announcements/responses/${await responseOfA(c)}/confirm?approve=true` }),
    bad: async (c) => ({ url: `/api/announcements/responses/${await responseOfA(c)}/confirm?approve=maybe` }),
    badBy: 'manager',
  },

  // ── Wages ──
  {
    call: 'GET /wages/driver/{id}',
    method: 'GET',
    matrix: '401 ok ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/wages/driver/${driverA(c)}` }),
    bad: async (c) => ({ url: `/api/wages/driver/${driverA(c)}?start_date=2026-11-30&end_date=2026-11-01` }),
    badBy: 'manager',
  },
  {
    call: 'GET /wages/company/{id}',
    method: 'GET',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/wages/company/${c.w.companyA}` }),
    bad: async (c) => ({ url: `/api/wages/company/${c.w.companyA}?start_date=1.11.2026` }),
    badBy: 'admin',
  },
  {
    call: 'GET /wages/company/{id}/loads',
    method: 'GET',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/wages/company/${c.w.companyA}/loads` }),
    bad: async (c) => ({ url: `/api/wages/company/${c.w.companyA}/loads?limit=0` }),
    badBy: 'admin',
  },

  {
    // A manager sees only their own salary; the row's target is company A's manager.
    call: 'GET /wages/manager/{id}',
    method: 'GET',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/wages/manager/${c.w.users.manager.id}` }),
    bad: async (c) => ({ url: `/api/wages/manager/${c.w.users.manager.id}?end_date=30.11.2026` }),
    badBy: 'admin',
  },

  // ── Progressive rates ──
  {
    call: 'GET /progressive_rates/company/{id}',
    method: 'GET',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/progressive_rates/company/${c.w.companyA}` }),
    bad: async () => ({ url: '/api/progressive_rates/company/one' }),
    badBy: 'manager',
  },
  {
    call: 'GET /progressive_rates/company/{id}/impact',
    method: 'GET',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/progressive_rates/company/${c.w.companyA}/impact?valid_from=2026-12-01` }),
    bad: async (c) => ({ url: `/api/progressive_rates/company/${c.w.companyA}/impact?valid_from=2026-13-01` }),
    badBy: 'manager',
  },
  {
    call: 'POST /progressive_rates/company/{id}',
    method: 'POST',
    matrix: '401 403 403 403 ok 404 ok',
    make: async (c) => {
      // A fresh, empty company each time keeps the ladder valid: its first band starts at 0.
      const company = await emptyLadderOfA(c);
      return { url: `/api/progressive_rates/company/${company}`, body: { min_quantity: 0, max_quantity: 100, rate: 450 } };
    },
    bad: async (c) => ({ url: `/api/progressive_rates/company/${await emptyLadderOfA(c)}`, body: { min_quantity: 10, rate: 450 } }),
    badBy: 'admin',
  },
  {
    call: 'PUT /progressive_rates/{id}',
    method: 'PUT',
    matrix: '401 403 403 403 ok 404 ok',
    make: async (c) => ({ url: `/api/progressive_rates/${await bandOfA(c)}`, body: { rate: 470 } }),
    bad: async (c) => ({ url: `/api/progressive_rates/${await bandOfA(c)}`, body: { rate: 'много' } }),
    badBy: 'admin',
  },
  {
    call: 'DELETE /progressive_rates/{id}',
    method: 'DELETE',
    matrix: '401 403 403 403 ok 404 ok',
    make: async (c) => ({ url: `/api/progressive_rates/${await bandOfA(c)}` }),
    bad: async () => ({ url: '/api/progressive_rates/0' }),
    badBy: 'admin',
  },

  {
    call: 'GET /tasks/suggestions',
    method: 'GET',
    matrix: '401 403 ok ok* ok ok* ok*',
    make: async (c) => ({ url: `/api/tasks/suggestions?field=cargo&q=щеб${c.caller === 'super' ? `&company_id=${c.w.companyB}` : ''}` }),
    bad: async () => ({ url: '/api/tasks/suggestions?field=price' }),
    badBy: 'manager',
  },

  // ── A user's own settings ──
  {
    call: 'GET /users/me/alerts',
    method: 'GET',
    matrix: '401 403 ok ok ok ok ok',
    make: async () => ({ url: '/api/users/me/alerts' }),
  },
  {
    call: 'PUT /users/me/alerts',
    method: 'PUT',
    matrix: '401 403 ok ok ok ok ok',
    make: async () => ({ url: '/api/users/me/alerts', body: { kinds: ['report'], sound: true, notify: false } }),
    bad: async () => ({ url: '/api/users/me/alerts', body: { kinds: ['погода'], sound: 'громко', notify: false } }),
    badBy: 'manager',
  },

  // ── Faster task entry ──
  {
    call: 'GET /tasks/templates',
    method: 'GET',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/tasks/templates?company_id=${c.w.companyA}` }),
    bad: async () => ({ url: '/api/tasks/templates?company_id=первая' }),
    badBy: 'manager',
  },
  {
    call: 'POST /tasks/templates',
    method: 'POST',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: '/api/tasks/templates', body: { name: `Шаблон ${randomUUID().slice(0, 6)}`, fields: TEMPLATE_FIELDS, company_id: c.w.companyA } }),
    bad: async (c) => ({ url: '/api/tasks/templates', body: { name: 'Шаблон', fields: { ...TEMPLATE_FIELDS, planned_quantity: 'много' }, company_id: c.w.companyA } }),
    badBy: 'manager',
  },
  {
    call: 'DELETE /tasks/templates/{id}',
    method: 'DELETE',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/tasks/templates/${await templateOfA(c)}` }),
    bad: async () => ({ url: '/api/tasks/templates/ноль' }),
    badBy: 'manager',
  },
  {
    call: 'POST /tasks/repeat',
    method: 'POST',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: '/api/tasks/repeat', body: { task: { ...TEMPLATE_FIELDS, date: dayFromToday(1), company_id: c.w.companyA }, dates: [dayFromToday(1), dayFromToday(2)] } }),
    bad: async (c) => ({ url: '/api/tasks/repeat', body: { task: { ...TEMPLATE_FIELDS, date: dayFromToday(1), company_id: c.w.companyA }, dates: [] } }),
    badBy: 'manager',
  },
  {
    call: 'GET /tasks/import/template',
    method: 'GET',
    matrix: '401 403 ok ok ok ok ok',
    make: async () => ({ url: '/api/tasks/import/template' }),
  },
  {
    call: 'POST /tasks/import/preview',
    method: 'POST',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: '/api/tasks/import/preview', body: { file_name: 'заявки.xlsx', file: await importFile(), company_id: c.w.companyA } }),
    bad: async (c) => ({ url: '/api/tasks/import/preview', body: { file_name: 'заявки.xlsx', file: '', company_id: c.w.companyA } }),
    badBy: 'manager',
  },
  {
    call: 'POST /tasks/import',
    method: 'POST',
    matrix: '401 403 ok 404 ok 404 ok',
    // Its places are new to the company: created with the tasks (docs/task-entry.md).
    make: async (c) => ({ url: '/api/tasks/import', body: { file_name: 'заявки.xlsx', file: await importFile(), company_id: c.w.companyA, create_missing: true } }),
    bad: async (c) => ({ url: '/api/tasks/import', body: { file_name: '', file: await importFile(), company_id: c.w.companyA } }),
    badBy: 'manager',
  },

  // ── Dispatch board ──
  {
    call: 'GET /dispatch/board',
    method: 'GET',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/dispatch/board?date=${dayFromToday(0)}&company_id=${c.w.companyA}` }),
    bad: async (c) => ({ url: `/api/dispatch/board?date=сегодня&company_id=${c.w.companyA}` }),
    badBy: 'manager',
  },
  {
    call: 'POST /dispatch/move',
    method: 'POST',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: '/api/dispatch/move', body: { task_id: await createTask(c.s, c.w.companyA, { date: dayFromToday(0) }), from_driver_id: null, to_driver_id: driverA(c), index: 0, date: dayFromToday(0) } }),
    bad: async (c) => ({ url: '/api/dispatch/move', body: { task_id: await createTask(c.s, c.w.companyA), from_driver_id: null, to_driver_id: driverA(c), index: 'первым', date: dayFromToday(0) } }),
    badBy: 'manager',
  },
  {
    call: 'POST /dispatch/assign',
    method: 'POST',
    matrix: '401 403 ok 400 ok 400 ok',
    make: async (c) => ({ url: '/api/dispatch/assign', body: { task_ids: [await createTask(c.s, c.w.companyA, { date: dayFromToday(0) })], driver_id: driverA(c), date: dayFromToday(0) } }),
    bad: async (c) => ({ url: '/api/dispatch/assign', body: { task_ids: [], driver_id: driverA(c), date: dayFromToday(0) } }),
    badBy: 'manager',
  },

  // ── Payroll ──
  {
    call: 'GET /payroll/',
    method: 'GET',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/payroll/?month=2026-10&company_id=${c.w.companyA}` }),
    bad: async (c) => ({ url: `/api/payroll/?month=2026-13&company_id=${c.w.companyA}` }),
    badBy: 'manager',
  },
  {
    call: 'GET /payroll/items',
    method: 'GET',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/payroll/items?month=2026-10&company_id=${c.w.companyA}&driver_id=${c.w.users.driver.id}` }),
    bad: async (c) => ({ url: `/api/payroll/items?month=2026-10&company_id=${c.w.companyA}&driver_id=abc` }),
    badBy: 'manager',
  },
  {
    call: 'POST /payroll/close',
    method: 'POST',
    matrix: '401 403 403 403 ok 404 ok',
    make: async (c) => ({ url: '/api/payroll/close', body: { company_id: await openPayrollOfA(c), month: '2026-09', confirmed: { total_amount: 0, drivers: 0, loads: 0, pending_loads: 0 } } }),
    bad: async (c) => ({ url: '/api/payroll/close', body: { company_id: c.w.companyA, month: '2026-9' } }),
    badBy: 'admin',
  },
  {
    call: 'GET /payroll/closes/{id}',
    method: 'GET',
    matrix: '401 403 403 403 ok 404 ok',
    make: async (c) => ({ url: `/api/payroll/closes/${await closeOfA(c)}` }),
    bad: async () => ({ url: '/api/payroll/closes/abc' }),
    badBy: 'admin',
  },
  {
    call: 'POST /payroll/reopen',
    method: 'POST',
    matrix: '401 403 403 403 403 403 ok',
    make: async (c) => ({ url: '/api/payroll/reopen', body: { company_id: await closedSeptemberOfA(c), month: '2026-09', reason: 'ошибка в ставке' } }),
    bad: async (c) => ({ url: '/api/payroll/reopen', body: { company_id: c.w.companyA, month: '2026-09', reason: '' } }),
    badBy: 'super',
  },
  {
    call: 'GET /payroll/{company_id}/{month}/sheet',
    method: 'GET',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/payroll/${c.w.companyA}/2026-10/sheet` }),
    bad: async (c) => ({ url: `/api/payroll/${c.w.companyA}/октябрь/sheet` }),
    badBy: 'manager',
  },
  {
    call: 'GET /payroll/adjustments',
    method: 'GET',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/payroll/adjustments?company_id=${c.w.companyA}` }),
    bad: async (c) => ({ url: `/api/payroll/adjustments?company_id=${c.w.companyA}&month=2026-13` }),
    badBy: 'manager',
  },
  {
    call: 'POST /payroll/adjustments',
    method: 'POST',
    matrix: '401 403 403 403 ok 404 ok',
    make: async (c) => ({ url: '/api/payroll/adjustments', body: { company_id: await openPayrollOfA(c), driver_id: c.w.users.driver.id, amount: 10, reason: 'премия' } }),
    bad: async (c) => ({ url: '/api/payroll/adjustments', body: { company_id: c.w.companyA, driver_id: c.w.users.driver.id, amount: 0, reason: 'ноль' } }),
    badBy: 'admin',
  },
  {
    call: 'GET /payroll/driver/{id}',
    method: 'GET',
    matrix: '401 ok ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/payroll/driver/${c.w.users.driver.id}` }),
    bad: async () => ({ url: '/api/payroll/driver/abc' }),
    badBy: 'manager',
  },
  {
    call: 'GET /payroll/driver/{id}/{company_id}/{month}',
    method: 'GET',
    matrix: '401 ok ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/payroll/driver/${c.w.users.driver.id}/${await closedSeptemberOfA(c)}/2026-09` }),
    bad: async (c) => ({ url: `/api/payroll/driver/${c.w.users.driver.id}/${c.w.companyA}/сентябрь` }),
    badBy: 'manager',
  },

  // ── Other ──
  {
    // The signed link is the credential: no bearer token needed.
    call: 'GET /onlyoffice/config',
    method: 'GET',
    matrix: 'ok ok ok ok ok ok ok',
    make: async (c) => {
      return { url: `/api/onlyoffice/config${await tableLinkOfA(c)}` };
    },
    bad: async () => ({ url: '/api/onlyoffice/config?file_id=abc' }),
    badBy: 'anon',
  },
  {
    call: 'POST /log-client-error',
    method: 'POST',
    matrix: 'ok ok ok ok ok ok ok',
    make: async () => ({ url: '/api/log-client-error', body: { message: 'boom', stack: 'at x', url: '/profile' } }),
    bad: async () => ({ url: '/api/log-client-error', body: { message: 'boom', lineno: -1 } }),
    badBy: 'anon',
  },
];

/** Calls the product has beyond the spec's list: the same table, kept apart so the spec's count stays visible. */
export const EXTRA_ROWS: Row[] = [
  {
    call: 'GET /push/key/',
    method: 'GET',
    matrix: 'ok ok ok ok ok ok ok',
    make: async () => ({ url: '/api/push/key/' }),
  },
  {
    call: 'PUT /push/subscription/',
    method: 'PUT',
    matrix: '401 ok ok ok ok ok ok',
    make: async () => ({ url: '/api/push/subscription/', body: { push_subscription: { endpoint: 'https://push.example/abc', keys: { p256dh: 'x', auth: 'y' } } } }),
    bad: async () => ({ url: '/api/push/subscription/', body: { push_subscription: { endpoint: 'ftp://nope' } } }),
    badBy: 'driver',
  },
  {
    call: 'DELETE /push/subscription/',
    method: 'DELETE',
    matrix: '401 ok ok ok ok ok ok',
    make: async () => ({ url: '/api/push/subscription/' }),
  },
  {
    call: 'GET /users/',
    method: 'GET',
    matrix: '401 403 403 403 403 403 ok',
    make: async () => ({ url: '/api/users/' }),
    bad: async () => ({ url: '/api/users/?limit=1000' }),
    badBy: 'super',
  },
  {
    call: 'POST /users/staff/',
    method: 'POST',
    matrix: '401 403 403 403 403 403 ok',
    make: async (c) => ({
      url: '/api/users/staff/',
      body: { email: `m-${uid()}@test.local`, password: 'password-1', name: 'Менеджер', phone: '+7 900 000-11-22', role: 'manager', company_id: c.w.companyA },
    }),
    bad: async (c) => ({ url: '/api/users/staff/', body: { email: `m-${uid()}@test.local`, password: 'password-1', name: 'М', phone: '+7 900 000-11-22', role: 'driver', company_id: c.w.companyA } }),
    badBy: 'super',
  },
  {
    call: 'PUT /users/{id}/',
    method: 'PUT',
    matrix: '401 403 403 403 403 403 ok',
    make: async (c) => ({ url: `/api/users/${(await makeUser(c.s, 'manager', c.w.companyA)).id}/`, body: { name: 'Переименован' } }),
    bad: async (c) => ({ url: `/api/users/${(await makeUser(c.s, 'manager', c.w.companyA)).id}/`, body: { role: 'pilot' } }),
    badBy: 'super',
  },
  { call: 'GET /client-errors/', method: 'GET', matrix: '401 403 403 403 403 403 ok', make: async () => ({ url: '/api/client-errors/' }) },
  {
    call: 'GET /tasks/active/',
    method: 'GET',
    matrix: '401 403 ok ok* ok ok* ok',
    make: async (c) => ({ url: `/api/tasks/active/?t=${(await taskWithDriver(c, 'in_progress')).task}` }),
    showsA: (body, _c, req) => json(body).includes(`"id":${new URL(req.url, 'http://x').searchParams.get('t')},`),
    bad: async () => ({ url: '/api/tasks/active/?date=yesterday' }),
    badBy: 'manager',
  },
  {
    call: 'PUT /tasks/{id}/drivers/{driverId}/move/',
    method: 'PUT',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => {
      const { task } = await taskWithDriver(c);
      return { url: `/api/tasks/${task}/drivers/${driverA(c)}/move/`, body: { to_driver_id: (await makeUser(c.s, 'driver', c.w.companyA)).id } };
    },
    bad: async (c) => ({ url: `/api/tasks/${(await taskWithDriver(c)).task}/drivers/${driverA(c)}/move/`, body: { to_driver_id: 'him' } }),
    badBy: 'manager',
  },
  {
    call: 'POST /tasks/completed/export/{id}/table-link',
    method: 'POST',
    matrix: '401 403 409 404 409 404 409',
    make: async (c) => ({ url: `/api/tasks/completed/export/${await exportJobOfA(c)}/table-link` }),
  },
  {
    // The /table link's token is the credential (EXPORTS.md): anyone holding it reads the file, whoever they are.
    call: 'GET /table/rows',
    method: 'GET',
    matrix: 'ok ok ok ok ok ok ok',
    make: async (c) => ({ url: `/api/table/rows${await tableLinkOfA(c)}` }),
    bad: async (c) => ({ url: `/api/table/rows${await tableLinkOfA(c)}&limit=-5` }),
    badBy: 'anon',
  },
  {
    call: 'GET /table/file',
    method: 'GET',
    matrix: 'ok ok ok ok ok ok ok',
    make: async (c) => ({ url: `/api/table/file${await tableLinkOfA(c)}` }),
    bad: async () => ({ url: '/api/table/file?file_id=abc' }),
    badBy: 'anon',
  },
  {
    call: 'GET /reports/',
    method: 'GET',
    matrix: '401 403 ok ok* ok ok* ok',
    make: async (c) => {
      const { task } = await reportOfA(c);
      return { url: `/api/reports/?task_id=${task}` };
    },
    showsA: (body, _c, req) => {
      const task = Number(new URL(req.url, 'http://x').searchParams.get('task_id'));
      return ((body as { items: { task: { id: number } }[] }).items ?? []).some((i) => i.task.id === task);
    },
    bad: async () => ({ url: '/api/reports/?flag=weird' }),
    badBy: 'manager',
  },
  {
    call: 'POST /reports/{id}/review',
    method: 'POST',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/reports/${(await reportOfA(c)).report}/review`, body: { action: 'approve' } }),
    bad: async (c) => ({ url: `/api/reports/${(await reportOfA(c)).report}/review`, body: { action: 'dispute', comment: '  ' } }),
    badBy: 'manager',
  },
  {
    call: 'POST /reports/review/approve-clean',
    method: 'POST',
    matrix: '401 403 ok ok ok ok ok',
    make: async () => ({ url: '/api/reports/review/approve-clean', body: { date_from: dayFromToday(-1), date_to: dayFromToday(1) } }),
    bad: async () => ({ url: '/api/reports/review/approve-clean', body: { date_from: dayFromToday(1), date_to: dayFromToday(-1) } }),
    badBy: 'manager',
  },
  {
    call: 'GET /audit/',
    method: 'GET',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/audit/?entity=task&id=${(await taskWithDriver(c)).task}` }),
    bad: async () => ({ url: '/api/audit/?entity=task&id=abc' }),
    badBy: 'manager',
  },
  {
    call: 'GET /companies/{id}/checks',
    method: 'GET',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/companies/${c.w.companyA}/checks` }),
  },
  {
    call: 'GET /companies/{id}/trip-settings',
    method: 'GET',
    matrix: '401 ok ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/companies/${c.w.companyA}/trip-settings` }),
  },
  {
    call: 'PUT /companies/{id}/trip-settings',
    method: 'PUT',
    matrix: '401 403 403 403 ok 403 ok',
    make: async (c) => ({ url: `/api/companies/${c.w.companyA}/trip-settings`, body: { acceptance_mode: 'none', long_wait_minutes: 60, geofence_dwell_seconds: 60, no_data_minutes: 90 } }),
    bad: async (c) => ({ url: `/api/companies/${c.w.companyA}/trip-settings`, body: { acceptance_mode: 'none', long_wait_minutes: 1, geofence_dwell_seconds: 60, no_data_minutes: 90 } }),
    badBy: 'admin',
  },
  {
    call: 'PUT /companies/{id}/checks',
    method: 'PUT',
    matrix: '401 403 403 403 ok 403 ok',
    make: async (c) => ({
      url: `/api/companies/${c.w.companyA}/checks`,
      body: { capacity_tolerance_pct: 5, mismatch_tolerance_pct: 2, over_share_tolerance_pct: 10, min_cycle_minutes: 15, late_filing_hours: 24 },
    }),
    bad: async (c) => ({ url: `/api/companies/${c.w.companyA}/checks`, body: { capacity_tolerance_pct: -1, mismatch_tolerance_pct: 2, over_share_tolerance_pct: 10, min_cycle_minutes: 15, late_filing_hours: 24 } }),
    badBy: 'admin',
  },
  {
    call: 'GET /companies/{id}/photo-retention',
    method: 'GET',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/companies/${c.w.companyA}/photo-retention` }),
  },
  {
    call: 'PUT /companies/{id}/photo-retention',
    method: 'PUT',
    matrix: '401 403 403 403 ok 403 ok',
    make: async (c) => ({ url: `/api/companies/${c.w.companyA}/photo-retention`, body: { rule: null } }),
    bad: async (c) => ({ url: `/api/companies/${c.w.companyA}/photo-retention`, body: { rule: { years: 0, action: 'archive' } } }),
    badBy: 'admin',
  },
  {
    call: 'GET /companies/{id}/operator',
    method: 'GET',
    matrix: '401 403 403 403 ok 404 ok',
    make: async (c) => ({ url: `/api/companies/${c.w.companyA}/operator` }),
  },
  {
    call: 'PUT /companies/{id}/operator',
    method: 'PUT',
    matrix: '401 403 403 403 ok 403 ok',
    make: async (c) => ({ url: `/api/companies/${c.w.companyA}/operator`, body: { adapter: 'files' } }),
    bad: async (c) => ({ url: `/api/companies/${c.w.companyA}/operator`, body: { adapter: 'diadoc', box_id: 'ящик', token: 't' } }),
    badBy: 'admin',
  },
  {
    call: 'GET /reports/{id}/documents',
    method: 'GET',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/reports/${(await reportOfA(c)).report}/documents` }),
    bad: async () => ({ url: '/api/reports/x1/documents' }),
    badBy: 'manager',
  },
  {
    call: 'GET /reports/{id}/pod.pdf',
    method: 'GET',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/reports/${(await reportOfA(c)).report}/pod.pdf` }),
  },
  {
    call: 'GET /reports/{id}/waybill.pdf',
    method: 'GET',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/reports/${(await reportOfA(c)).report}/waybill.pdf` }),
  },
  {
    call: 'GET /tasks/{id}/waybills.pdf',
    method: 'GET',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/tasks/${(await reportOfA(c)).task}/waybills.pdf` }),
    bad: async () => ({ url: '/api/tasks/x1/waybills.pdf' }),
    badBy: 'manager',
  },
  {
    // Another company's staff asking for the day get their own company's day, which has no trip on it: 404.
    call: 'GET /reports/waybills.pdf',
    method: 'GET',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => {
      const { task } = await reportOfA(c);
      // A day of its own: company B has trips today from other rows.
      const day = `2031-0${1 + (task % 9)}-1${task % 10}`;
      await c.s.db.kysely.updateTable('tasks').set({ date: day }).where('id', '=', task).execute();
      return { url: `/api/reports/waybills.pdf?date=${day}${forSuper(c)}` };
    },
    bad: async () => ({ url: '/api/reports/waybills.pdf?date=tomorrow' }),
    badBy: 'manager',
  },
  {
    // A form-filed trip has no loading times: the title is refused naming them (409), after the guard let staff in.
    call: 'GET /reports/{id}/etrn/{file}',
    method: 'GET',
    matrix: '401 403 409 404 409 404 409',
    make: async (c) => ({ url: `/api/reports/${(await reportOfA(c)).report}/etrn/t1.xml` }),
    bad: async (c) => ({ url: `/api/reports/${(await reportOfA(c)).report}/etrn/t3.xml` }),
    badBy: 'manager',
  },
  {
    // The format's example Т1 names no trip of any company: staff are let in and told nothing links (409).
    call: 'POST /etrn/incoming',
    method: 'POST',
    matrix: '401 403 409 409 409 409 409',
    make: async () => ({ url: '/api/etrn/incoming', form: incomingForm(EXAMPLE_T1) }),
    bad: async () => ({ url: '/api/etrn/incoming', form: incomingForm(Buffer.from('не XML')) }),
    badBy: 'manager',
  },
  {
    call: 'GET /etrn/incoming/{id}',
    method: 'GET',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/etrn/incoming/${await incomingOfA(c)}` }),
    bad: async () => ({ url: '/api/etrn/incoming/x1' }),
    badBy: 'manager',
  },
  {
    call: 'GET /reports/{id}',
    method: 'GET',
    matrix: '401 ok ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/reports/${(await reportOfA(c)).report}` }),
  },
  {
    call: 'GET /reports/photos/{photoId}',
    method: 'GET',
    matrix: '401 ok ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/reports/photos/${(await reportOfA(c)).photo}` }),
  },
  {
    call: 'POST /announcements/{id}/read',
    method: 'POST',
    matrix: '401 ok ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/announcements/${await announcementOfA(c)}/read` }),
  },
  {
    call: 'GET /wages/managers/',
    method: 'GET',
    matrix: '401 403 ok ok* ok ok* ok',
    make: async () => ({ url: '/api/wages/managers/' }),
    showsA: (body, c) => (body as { manager_id: number }[]).some((r) => r.manager_id === c.w.users.manager.id),
    bad: async () => ({ url: '/api/wages/managers/?company_id=first' }),
    badBy: 'super',
  },
  {
    call: 'PUT /wages/manager/{id}/rate',
    method: 'PUT',
    matrix: '401 403 403 403 ok 404 ok',
    make: async (c) => ({ url: `/api/wages/manager/${c.w.users.manager.id}/rate`, body: { rate: 10 } }),
    bad: async (c) => ({ url: `/api/wages/manager/${c.w.users.manager.id}/rate`, body: { rate: '10' } }),
    badBy: 'admin',
  },
  {
    call: 'GET /reports/daily_hours/',
    method: 'GET',
    matrix: '401 ok 403 403 403 403 403',
    make: async () => ({ url: '/api/reports/daily_hours/' }),
  },

  // ── The registers (issue 31; docs/registers.md): a super-admin names the company ──
  {
    call: 'GET /companies/{id}',
    method: 'GET',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/companies/${c.w.companyA}` }),
  },
  {
    call: 'GET /counterparties/',
    method: 'GET',
    matrix: '401 403 ok ok* ok ok* ok',
    make: async (c) => {
      await makeCounterparty(c.s, c.w.companyA);
      return { url: `/api/counterparties/?limit=200${forSuper(c)}` };
    },
    showsA: holdsCompanyA,
    bad: async () => ({ url: '/api/counterparties/?role=boss' }),
    badBy: 'manager',
  },
  {
    call: 'POST /counterparties/',
    method: 'POST',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/counterparties/?company_id=${c.w.companyA}`, body: { legal_form: 'ul', name: `ООО «${uid()}»`, inn: randomInn10(), roles: ['customer'] } }),
    bad: async (c) => ({ url: `/api/counterparties/?company_id=${c.w.companyA}`, body: { legal_form: 'ul', name: 'ООО «Ошибка»', inn: '7707083894', roles: ['customer'] } }),
    badBy: 'manager',
  },
  {
    call: 'PUT /counterparties/{id}',
    method: 'PUT',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/counterparties/${await makeCounterparty(c.s, c.w.companyA)}`, body: { legal_form: 'fl', name: `Иванов ${uid()}`, inn: null, roles: ['consignee'] } }),
    bad: async (c) => ({ url: `/api/counterparties/${await makeCounterparty(c.s, c.w.companyA)}`, body: { legal_form: 'ul', name: 'ООО', inn: randomInn10(), roles: [] } }),
    badBy: 'admin',
  },
  {
    call: 'DELETE /counterparties/{id}',
    method: 'DELETE',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/counterparties/${await makeCounterparty(c.s, c.w.companyA)}` }),
    bad: async () => ({ url: '/api/counterparties/first' }),
  },
  {
    call: 'POST /counterparties/{id}/restore',
    method: 'POST',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/counterparties/${await makeCounterparty(c.s, c.w.companyA, { archived: true })}/restore` }),
    bad: async () => ({ url: '/api/counterparties/first/restore' }),
  },
  {
    call: 'GET /places/',
    method: 'GET',
    matrix: '401 403 ok ok* ok ok* ok',
    make: async (c) => {
      await makePlace(c.s, c.w.companyA);
      return { url: `/api/places/?limit=200${forSuper(c)}` };
    },
    showsA: holdsCompanyA,
    bad: async () => ({ url: '/api/places/?limit=0' }),
    badBy: 'manager',
  },
  {
    call: 'GET /places/map-tiles',
    method: 'GET',
    matrix: '401 403 ok ok ok ok ok',
    make: async () => ({ url: '/api/places/map-tiles' }),
  },
  {
    call: 'POST /places/',
    method: 'POST',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/places/?company_id=${c.w.companyA}`, body: { name: `Карьер ${uid()}`, lat: 55.75, lon: 37.62 } }),
    bad: async (c) => ({ url: `/api/places/?company_id=${c.w.companyA}`, body: { name: `Карьер ${uid()}`, lat: 95, lon: 37.62 } }),
    badBy: 'manager',
  },
  {
    call: 'PUT /places/{id}',
    method: 'PUT',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/places/${await makePlace(c.s, c.w.companyA)}`, body: { name: `Склад ${uid()}`, radius_m: 300 } }),
    bad: async (c) => ({ url: `/api/places/${await makePlace(c.s, c.w.companyA)}`, body: { name: `Склад ${uid()}`, radius_m: 10 } }),
    badBy: 'admin',
  },
  {
    call: 'DELETE /places/{id}',
    method: 'DELETE',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/places/${await makePlace(c.s, c.w.companyA)}` }),
    bad: async () => ({ url: '/api/places/0' }),
  },
  {
    call: 'POST /places/{id}/restore',
    method: 'POST',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/places/${await makePlace(c.s, c.w.companyA, { archived: true })}/restore` }),
    bad: async () => ({ url: '/api/places/0/restore' }),
  },
  {
    call: 'GET /vehicles/',
    method: 'GET',
    matrix: '401 403 ok ok* ok ok* ok',
    make: async (c) => {
      await makeVehicle(c.s, c.w.companyA);
      return { url: `/api/vehicles/?limit=200${forSuper(c)}` };
    },
    showsA: holdsCompanyA,
    bad: async () => ({ url: '/api/vehicles/?active=yes' }),
    badBy: 'manager',
  },
  {
    call: 'POST /vehicles/',
    method: 'POST',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/vehicles/?company_id=${c.w.companyA}`, body: { plate: randomPlate(), capacity_t: 20 } }),
    bad: async (c) => ({ url: `/api/vehicles/?company_id=${c.w.companyA}`, body: { plate: 'Z999ZZ 77' } }),
    badBy: 'manager',
  },
  {
    call: 'PUT /vehicles/{id}',
    method: 'PUT',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/vehicles/${await makeVehicle(c.s, c.w.companyA)}`, body: { plate: randomPlate(), ownership: 'leasing', is_active: false } }),
    bad: async (c) => ({ url: `/api/vehicles/${await makeVehicle(c.s, c.w.companyA)}`, body: { plate: randomPlate(), capacity_t: 225 } }),
    badBy: 'admin',
  },
  {
    call: 'GET /trip-sheets/',
    method: 'GET',
    matrix: '401 403 ok ok* ok ok* ok',
    make: async (c) => {
      await sheetOfA(c);
      return { url: `/api/trip-sheets/?date=2026-11-27${forSuper(c)}` };
    },
    showsA: holdsCompanyA,
    bad: async () => ({ url: '/api/trip-sheets/?date=27.11.2026' }),
    badBy: 'manager',
  },
  {
    call: 'POST /trip-sheets/',
    method: 'POST',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/trip-sheets/?company_id=${c.w.companyA}`, body: { vehicle_id: await makeVehicle(c.s, c.w.companyA), driver_id: c.w.users.driver.id, date: '2026-11-27' } }),
    bad: async (c) => ({ url: `/api/trip-sheets/?company_id=${c.w.companyA}`, body: { vehicle_id: await makeVehicle(c.s, c.w.companyA), driver_id: c.w.users.driver.id, date: '2026-02-30' } }),
    badBy: 'manager',
  },
  {
    call: 'POST /trip-sheets/checks',
    method: 'POST',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => {
      await sheetOfA(c);
      return { url: `/api/trip-sheets/checks?company_id=${c.w.companyA}`, body: { kind: 'pre_technical', date: '2026-11-27', text: 'Водитель;Время;Механик\nТест;06:50;Кузнецов П. И.' } };
    },
    bad: async (c) => ({ url: `/api/trip-sheets/checks?company_id=${c.w.companyA}`, body: { kind: 'pre_technical', text: 'Водитель;Дата\nТест;27.11.2026' } }),
    badBy: 'manager',
  },
  {
    call: 'PUT /trip-sheets/{id}',
    method: 'PUT',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/trip-sheets/${await sheetOfA(c)}`, body: { pre_technical: { at: '2026-11-27T06:50:00+03:00', name: 'Кузнецов П. И.' } } }),
    bad: async (c) => ({ url: `/api/trip-sheets/${await sheetOfA(c)}`, body: { odometer_start: -5 } }),
    badBy: 'admin',
  },
  {
    call: 'GET /trip-sheets/{id}.pdf',
    method: 'GET',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/trip-sheets/${await sheetOfA(c)}.pdf` }),
    bad: async () => ({ url: '/api/trip-sheets/first.pdf' }),
    badBy: 'manager',
  },
  {
    call: 'DELETE /trip-sheets/{id}',
    method: 'DELETE',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/trip-sheets/${await sheetOfA(c)}` }),
  },
  {
    call: 'GET /trip-sheets/mine',
    method: 'GET',
    matrix: '401 ok 403 403 403 403 403',
    make: async () => ({ url: '/api/trip-sheets/mine?date=2026-11-27' }),
    bad: async () => ({ url: '/api/trip-sheets/mine?date=yesterday' }),
    badBy: 'driver',
  },
  {
    call: 'PUT /trip-sheets/{id}/odometer/{which}',
    method: 'PUT',
    matrix: '401 ok 403 403 403 403 403',
    make: async (c) => ({ url: `/api/trip-sheets/${await sheetOfA(c)}/odometer/start`, body: { value: 1000, at: '2026-11-27T07:00:00+03:00' } }),
    bad: async (c) => ({ url: `/api/trip-sheets/${await sheetOfA(c)}/odometer/start`, body: { value: 10.5, at: '2026-11-27T07:00:00+03:00' } }),
    badBy: 'driver',
  },
  {
    // A reading recorded without a photo: the guard let the caller in, then «Фото одометра нет» (404); the driver of
    // company A is the sheet's driver; another company's staff never learn the sheet exists.
    call: 'GET /trip-sheets/{id}/odometer/{which}/photo',
    method: 'GET',
    matrix: '401 404 404 404 404 404 404',
    make: async (c) => ({ url: `/api/trip-sheets/${await sheetOfA(c)}/odometer/start/photo` }),
    bad: async (c) => ({ url: `/api/trip-sheets/${await sheetOfA(c)}/odometer/middle/photo` }),
    badBy: 'manager',
  },
  // ── The customer's price list (issue 34; docs/prices.md): the customer names the company ──
  {
    call: 'GET /price-lists/',
    method: 'GET',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/price-lists/?counterparty_id=${await makeCounterparty(c.s, c.w.companyA)}` }),
    bad: async () => ({ url: '/api/price-lists/?counterparty_id=01' }),
    badBy: 'manager',
  },
  {
    call: 'POST /price-lists/',
    method: 'POST',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: '/api/price-lists/', body: { counterparty_id: await makeCounterparty(c.s, c.w.companyA), unit: 'т', price: 450.5, vat_mode: 'none', valid_from: '2030-01-01' } }),
    bad: async (c) => ({ url: '/api/price-lists/', body: { counterparty_id: await makeCounterparty(c.s, c.w.companyA), unit: 'т', price: 450.555, vat_mode: 'none', valid_from: '2030-01-01' } }),
    badBy: 'manager',
  },
  {
    call: 'PUT /price-lists/{id}',
    method: 'PUT',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/price-lists/${await makePriceLine(c)}`, body: { unit: 'рейс', price: 9000, vat_mode: 'included', vat_rate: 22, valid_from: '2030-02-01' } }),
    bad: async (c) => ({ url: `/api/price-lists/${await makePriceLine(c)}`, body: { unit: 'час', price: 1500, vat_mode: 'none', valid_from: '2030-02-01' } }),
    badBy: 'admin',
  },
  // ── The statement, the act and the invoice (issue 34 §2; docs/statements.md): the customer names the company ──
  {
    call: 'GET /counterparties/{id}/statement',
    method: 'GET',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/counterparties/${(await billedCustomer(c)).customer}/statement?from=2030-01-01&to=2030-01-31&format=json` }),
    bad: async (c) => ({ url: `/api/counterparties/${(await billedCustomer(c)).customer}/statement?from=2030-01-31&to=2030-01-01` }),
    badBy: 'manager',
  },
  {
    call: 'GET /invoices/',
    method: 'GET',
    matrix: '401 403 ok ok* ok ok* ok',
    make: async (c) => {
      await issuedInvoice(c);
      return { url: '/api/invoices/' };
    },
    showsA: (body, c) => Array.isArray(body) && body.some((i: { company_id: number }) => i.company_id === c.w.companyA),
    bad: async () => ({ url: '/api/invoices/?state=open' }),
    badBy: 'manager',
  },
  {
    call: 'POST /invoices/',
    method: 'POST',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: '/api/invoices/', body: { counterparty_id: (await billedCustomer(c)).customer, from: '2030-01-01', to: '2030-01-31' } }),
    bad: async (c) => ({ url: '/api/invoices/', body: { counterparty_id: (await billedCustomer(c)).customer, from: '2030-01-31', to: '2030-01-01' } }),
    badBy: 'manager',
  },
  {
    call: 'GET /invoices/{id}',
    method: 'GET',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/invoices/${await issuedInvoice(c)}` }),
  },
  {
    call: 'GET /invoices/{id}/act.pdf',
    method: 'GET',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/invoices/${await issuedInvoice(c)}/act.pdf` }),
  },
  {
    call: 'GET /invoices/{id}/invoice.pdf',
    method: 'GET',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/invoices/${await issuedInvoice(c)}/invoice.pdf` }),
  },
  {
    call: 'POST /invoices/{id}/paid',
    method: 'POST',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/invoices/${await issuedInvoice(c)}/paid`, body: { date: dayFromToday(0) } }),
    bad: async (c) => ({ url: `/api/invoices/${await issuedInvoice(c)}/paid`, body: { date: '31.01.2030' } }),
    badBy: 'admin',
  },
  // ── The exchange's documents (issue 33 §3; docs/documents.md): staff of the document's company ──
  {
    call: 'GET /documents/',
    method: 'GET',
    matrix: '401 403 ok ok* ok ok* ok',
    make: async (c) => {
      await documentOfA(c, 'draft');
      return { url: '/api/documents/' };
    },
    showsA: (body, c) => (body as { items: { company_id: number }[] }).items.some((d) => d.company_id === c.w.companyA),
    bad: async () => ({ url: '/api/documents/?state=closed' }),
    badBy: 'manager',
  },
  {
    call: 'POST /documents/',
    method: 'POST',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: '/api/documents/', body: { report_id: (await reportOfA(c)).report, title: 't1' } }),
    bad: async (c) => ({ url: '/api/documents/', body: { report_id: (await reportOfA(c)).report, title: 't3' } }),
    badBy: 'manager',
  },
  {
    // A form-filed trip lacks the title's facts: made ready it is refused naming them (409), after the guard let staff in.
    call: 'POST /documents/{id}/ready',
    method: 'POST',
    matrix: '401 403 409 404 409 404 409',
    make: async (c) => ({ url: `/api/documents/${await documentOfA(c, 'draft')}/ready` }),
  },
  {
    // Each document made ready or reported: company A's form-filed draft lacks its facts (reported, 200); another
    // company's staff find none of them (404).
    call: 'POST /documents/ready',
    method: 'POST',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: '/api/documents/ready', body: { ids: [await documentOfA(c, 'draft')] } }),
    bad: async () => ({ url: '/api/documents/ready', body: { ids: [] } }),
    badBy: 'manager',
  },
  {
    call: 'POST /documents/{id}/annul',
    method: 'POST',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/documents/${await documentOfA(c, 'draft')}/annul`, body: { reason: 'Рейс отменён' } }),
    bad: async (c) => ({ url: `/api/documents/${await documentOfA(c, 'draft')}/annul`, body: { reason: 'я'.repeat(501) } }),
    badBy: 'manager',
  },
  {
    call: 'GET /documents/{id}/file.xml',
    method: 'GET',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/documents/${await documentOfA(c, 'ready')}/file.xml` }),
  },
  {
    call: 'GET /documents/export',
    method: 'GET',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => {
      await documentOfA(c, 'ready');
      return { url: `/api/documents/export?date=${dayFromToday(0)}&company_id=${c.w.companyA}` };
    },
    bad: async () => ({ url: '/api/documents/export?date=2030-02-31' }),
    badBy: 'manager',
  },
  {
    call: 'POST /documents/answers',
    method: 'POST',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({
      url: '/api/documents/answers',
      body: { company_id: c.w.companyA, files: [{ name: 'ответ.json', data: Buffer.from(JSON.stringify({ file: `ON_TRNACLGROT_${uid()}`, status: 'accepted', uid: uid() })).toString('base64') }] },
    }),
    bad: async () => ({ url: '/api/documents/answers', body: { files: [] } }),
    badBy: 'manager',
  },
  // ── The customer's link (issue 34 §3; docs/customer-link.md): staff of the customer's company; /c/… by its token ──
  {
    call: 'POST /customer-links/',
    method: 'POST',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: '/api/customer-links/', body: { counterparty_id: await makeCounterparty(c.s, c.w.companyA), days: 7 } }),
    bad: async (c) => ({ url: '/api/customer-links/', body: { counterparty_id: await makeCounterparty(c.s, c.w.companyA), days: 0 } }),
    badBy: 'manager',
  },
  {
    call: 'GET /customer-links/',
    method: 'GET',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/customer-links/?counterparty_id=${(await linkedTripOfA(c)).customer}` }),
    bad: async () => ({ url: '/api/customer-links/?counterparty_id=x' }),
    badBy: 'admin',
  },
  {
    call: 'DELETE /customer-links/{id}',
    method: 'DELETE',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/customer-links/${(await linkedTripOfA(c)).link}` }),
  },
  {
    call: 'POST /customer-links/disputes/{id}/answer',
    method: 'POST',
    matrix: '401 403 ok 404 ok 404 ok',
    make: async (c) => ({ url: `/api/customer-links/disputes/${await disputeOfA(c)}/answer`, body: { answer: 'Весы показали верно' } }),
    bad: async (c) => ({ url: `/api/customer-links/disputes/${await disputeOfA(c)}/answer`, body: { answer: '' } }),
    badBy: 'manager',
  },
  {
    // The link's token is the credential: anyone holding it sees that customer's trips, whoever they are.
    call: 'GET /c/{token}/trips',
    method: 'GET',
    matrix: 'ok ok ok ok ok ok ok',
    make: async (c) => ({ url: `/api/c/${(await linkedTripOfA(c)).token}/trips` }),
    bad: async (c) => ({ url: `/api/c/${(await linkedTripOfA(c)).token}/trips?from=2026-02-30` }),
    badBy: 'anon',
  },
  {
    call: 'GET /c/{token}/trips/{report_id}',
    method: 'GET',
    matrix: 'ok ok ok ok ok ok ok',
    make: async (c) => {
      const t = await linkedTripOfA(c);
      return { url: `/api/c/${t.token}/trips/${t.report}` };
    },
    bad: async (c) => ({ url: `/api/c/${(await linkedTripOfA(c)).token}/trips/01` }),
    badBy: 'anon',
  },
  {
    call: 'GET /c/{token}/photos/{id}',
    method: 'GET',
    matrix: 'ok ok ok ok ok ok ok',
    make: async (c) => {
      const t = await linkedTripOfA(c);
      return { url: `/api/c/${t.token}/photos/${t.photo}` };
    },
  },
  {
    call: 'GET /c/{token}/signatures/{id}',
    method: 'GET',
    matrix: 'ok ok ok ok ok ok ok',
    make: async (c) => {
      const t = await linkedTripOfA(c);
      return { url: `/api/c/${t.token}/signatures/${t.signature}` };
    },
  },
  {
    call: 'POST /c/{token}/trips/{report_id}/dispute',
    method: 'POST',
    matrix: 'ok ok ok ok ok ok ok',
    make: async (c) => {
      const t = await linkedTripOfA(c);
      return { url: `/api/c/${t.token}/trips/${t.report}/dispute`, body: { reason: 'Привезли меньше, чем в талоне' } };
    },
    bad: async (c) => {
      const t = await linkedTripOfA(c);
      return { url: `/api/c/${t.token}/trips/${t.report}/dispute`, body: { reason: 'нет' } };
    },
    badBy: 'anon',
  },
  {
    call: 'GET /c/{token}/statement',
    method: 'GET',
    matrix: 'ok ok ok ok ok ok ok',
    make: async (c) => ({ url: `/api/c/${(await linkedInvoiceOfA(c)).token}/statement?from=2030-01-01&to=2030-01-31&format=pdf` }),
    bad: async (c) => ({ url: `/api/c/${(await linkedInvoiceOfA(c)).token}/statement?from=2030-01-01&to=2030-01-31&format=doc` }),
    badBy: 'anon',
  },
  {
    call: 'GET /c/{token}/invoices',
    method: 'GET',
    matrix: 'ok ok ok ok ok ok ok',
    make: async (c) => ({ url: `/api/c/${(await linkedInvoiceOfA(c)).token}/invoices` }),
  },
  {
    call: 'GET /c/{token}/invoices/{id}/act.pdf',
    method: 'GET',
    matrix: 'ok ok ok ok ok ok ok',
    make: async (c) => {
      const t = await linkedInvoiceOfA(c);
      return { url: `/api/c/${t.token}/invoices/${t.invoice}/act.pdf` };
    },
  },
  {
    call: 'GET /c/{token}/invoices/{id}/invoice.pdf',
    method: 'GET',
    matrix: 'ok ok ok ok ok ok ok',
    make: async (c) => {
      const t = await linkedInvoiceOfA(c);
      return { url: `/api/c/${t.token}/invoices/${t.invoice}/invoice.pdf` };
    },
  },
  {
    call: 'GET /c/{token}/trips/{report_id}/pod.pdf',
    method: 'GET',
    matrix: 'ok ok ok ok ok ok ok',
    make: async (c) => {
      const t = await linkedTripOfA(c);
      return { url: `/api/c/${t.token}/trips/${t.report}/pod.pdf` };
    },
  },
  {
    call: 'GET /c/{token}/trips/{report_id}/waybill.pdf',
    method: 'GET',
    matrix: 'ok ok ok ok ok ok ok',
    make: async (c) => {
      const t = await linkedTripOfA(c);
      return { url: `/api/c/${t.token}/trips/${t.report}/waybill.pdf` };
    },
  },
];

/** A new customer of company A with one approved, priced trip on 2030-01-15. */
async function billedCustomer(c: Ctx): Promise<{ customer: number }> {
  const customer = await makeCounterparty(c.s, c.w.companyA);
  await makeTrip(c.s, { companyId: c.w.companyA, customerId: customer, driverId: c.w.users.driver.id, date: '2030-01-15', quantity: 20 });
  return { customer };
}

/** An act of company A issued for such a customer by A's admin; its id. */
async function issuedInvoice(c: Ctx): Promise<number> {
  const { customer } = await billedCustomer(c);
  const res = await call<{ id: number }>(c.s, 'POST', '/api/invoices/', { token: c.w.tokens.admin, body: { counterparty_id: customer, from: '2030-01-01', to: '2030-01-31' } });
  if (res.status !== 201) throw new Error(`invoice not issued: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}

/** A live link of a billed customer of company A (an act issued to him): its token and the act's id. */
async function linkedInvoiceOfA(c: Ctx): Promise<{ token: string; invoice: number }> {
  const invoice = await issuedInvoice(c);
  const row = await c.s.db.kysely.selectFrom('invoices').select('counterparty_id').where('id', '=', invoice).executeTakeFirstOrThrow();
  return { token: (await linkOfA(c, row.counterparty_id)).token, invoice };
}

/** A live link (a day) of company A's customer, straight in the database: its token and id. */
async function linkOfA(c: Ctx, customer: number): Promise<{ token: string; id: number }> {
  const token = randomBytes(32).toString('base64url');
  const row = await c.s.db.kysely
    .insertInto('customer_links')
    .values({ company_id: c.w.companyA, counterparty_id: customer, token_hash: hashToken(token), created_by: null, created_at: nowIso(), expires_at: new Date(Date.now() + 86_400_000).toISOString() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { token, id: row.id };
}

/**
 * A report of company A (with a photo) on a task for a fresh customer, signed for by a receiver, and a live link
 * of that customer: its token, ids.
 */
async function linkedTripOfA(c: Ctx) {
  const { task, report, photo } = await reportOfA(c);
  const customer = await makeCounterparty(c.s, c.w.companyA);
  await c.s.db.kysely.updateTable('tasks').set({ customer_id: customer }).where('id', '=', task).execute();
  const tripUid = randomUUID();
  await c.s.db.kysely.updateTable('reports').set({ trip_uid: tripUid }).where('id', '=', report).execute();
  const signature = await signatureOfA(c);
  await c.s.db.kysely.insertInto('trip_acceptance_trips').values({ acceptance_id: signature, trip_uid: tripUid }).execute();
  const link = await linkOfA(c, customer);
  return { customer, report, photo, signature, token: link.token, link: link.id };
}

/** An unanswered dispute of company A's customer. */
async function disputeOfA(c: Ctx): Promise<number> {
  const t = await linkedTripOfA(c);
  const row = await c.s.db.kysely
    .insertInto('customer_disputes')
    .values({ link_id: t.link, report_id: t.report, reason: 'Не тот вес', address: '127.0.0.1', created_at: nowIso() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A Т1 of a fresh report of company A in the exchange, straight in the database: a draft, or ready with a file. */
async function documentOfA(c: Ctx, state: 'draft' | 'ready'): Promise<number> {
  const { report } = await reportOfA(c);
  const now = nowIso();
  const file = state === 'ready' ? { file_name: `ON_TRNACLGROT_${uid()}`, xml: '<?xml version="1.0" encoding="windows-1251"?><Файл/>', idempotency_key: randomUUID(), ready_at: now } : {};
  const row = await c.s.db.kysely
    .insertInto('etrn_documents')
    .values({ company_id: c.w.companyA, report_id: report, title: 't1', direction: 'out', state, trip_date: dayFromToday(0), created_at: now, updated_at: now, ...file })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A line of a new customer's price list of company A, straight in the database. */
async function makePriceLine(c: Ctx): Promise<number> {
  const counterparty_id = await makeCounterparty(c.s, c.w.companyA);
  const now = new Date().toISOString();
  const row = await c.s.db.kysely
    .insertInto('price_lines')
    .values({ company_id: c.w.companyA, counterparty_id, cargo: null, cargo_key: '', unit: 'т', price_kop: 45050, vat_mode: 'none', valid_from: '2030-01-01', created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function send(c: Ctx, method: Method, req: Req, caller: Caller) {
  const headers: Record<string, string> = {};
  if (caller !== 'anon') headers.authorization = `Bearer ${c.w.tokens[TOKEN_KEY[caller]]}`;
  if (method === 'POST' && req.form) headers['idempotency-key'] = randomUUID();
  let payload: string | Buffer | undefined;
  if (req.form) {
    const encoded = await encodeForm(req.form);
    payload = encoded.payload;
    Object.assign(headers, encoded.headers);
  } else if (req.body !== undefined) {
    payload = JSON.stringify(req.body);
    headers['content-type'] = 'application/json';
  }
  const res = await c.s.app.inject({ method, url: req.url, headers, ...(payload === undefined ? {} : { payload }) });
  const type = String(res.headers['content-type'] ?? '');
  const body: unknown = type.includes('application/json') && res.body ? JSON.parse(res.body) : res.body;
  return { status: res.statusCode, body };
}

/** Runs one row's whole matrix; returns the mismatches (empty when the row holds). */
export async function checkRow(s: TestServer, w: World, row: Row): Promise<string[]> {
  const cells = row.matrix.split(/\s+/);
  if (cells.length !== CALLERS.length) return [`matrix has ${cells.length} cells`];
  const problems: string[] = [];
  for (const [i, caller] of CALLERS.entries()) {
    const want = cells[i] as string;
    const c: Ctx = { s, w, caller };
    const req = await row.make(c);
    const res = await send(c, row.method, req, caller);
    const label = `${caller}: ${row.method} ${req.url} → ${res.status} ${json(res.body).slice(0, 200)}`;
    const ok = res.status >= 200 && res.status < 300;
    if (want === 'ok' || want === 'ok*') {
      if (!ok) problems.push(`${label} (want ${want})`);
      else if (want === 'ok*' && row.showsA?.(res.body, c, req)) problems.push(`${label} (shows company A's object)`);
      else if (want === 'ok' && row.showsA && !row.showsA(res.body, c, req)) problems.push(`${label} (misses company A's object)`);
    } else {
      if (String(res.status) !== want) problems.push(`${label} (want ${want})`);
      else if (typeof (res.body as { detail?: unknown }).detail !== 'string') problems.push(`${label} (no detail)`);
    }
  }
  if (row.bad) {
    const caller = row.badBy ?? 'super';
    const c: Ctx = { s, w, caller };
    const req = await row.bad(c);
    const res = await send(c, row.method, req, caller);
    const detail = (res.body as { detail?: unknown }).detail;
    if (res.status !== 400 || typeof detail !== 'string' || !/[а-яё]/i.test(detail)) {
      problems.push(`bad input by ${caller}: ${row.method} ${req.url} → ${res.status} ${json(res.body).slice(0, 200)} (want 400 with a Russian detail)`);
    }
  }
  return problems;
}

describe.each(backends)('RBAC matrix of every call ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let world: World;
  serveSuite(databaseUrl, async (s) => {
    server = s;
    world = await makeWorld(s);
  });

  it.each(ROWS)('$call', async (row) => {
    expect(await checkRow(server, world, row)).toEqual([]);
  });

  it.each(EXTRA_ROWS)('$call (beyond the spec)', async (row) => {
    expect(await checkRow(server, world, row)).toEqual([]);
  });

  it('has one row for every registered API route, and no row for a route that does not exist', () => {
    const rows = [...ROWS, ...EXTRA_ROWS].map((r) => r.call.replace(/\{(\w+)\}/g, ':$1'));
    expect(new Set(rows).size).toBe(rows.length);
    const routes = apiRoutes(server).filter((key) => !NO_ROW.includes(key));
    expect(routes.filter((key) => !rows.includes(key))).toEqual([]);
    expect(rows.filter((key) => !routes.includes(key))).toEqual([]);
  });
});

/** The change feed's stream is no call of the matrix: tests/server/events.test.ts covers who may open it. */
const NO_ROW = ['GET /events/'];

/** Every API route the app registered, as `METHOD /path` without the /api prefix. */
export function apiRoutes(s: TestServer): string[] {
  return [...new Set(s.app.registeredRoutes.filter((r) => r.url.startsWith('/api/')).map((r) => `${r.method} ${r.url.slice(4)}`))];
}
