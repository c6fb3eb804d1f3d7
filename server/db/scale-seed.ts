/**
 * A big carrier's history for measuring the app at scale (issue 35; docs/scale.md): one carrier with `trucks`
 * trucks and `carriers` small ones (2–4 trucks each), every day of `days` up to `end`: the day's tasks with
 * their drivers, every trip a report with its weighbridge ticket and 1–3 photos (rows; the last `photoFiles` as
 * real JPEG files), reviews (a few disputed, the last days pending), the automatic checks' flags on a planted
 * few, the history of every task, part and report, daily hours, transfers to the small carriers (accepted with
 * their carrier task, declined, pending), adjustments, announcements — and every month before `end`'s closed by
 * the project's own `closeMonth`, which stores its payroll lines.
 *
 * Written through the project's schema (openDb runs the migrations) with bulk multi-row inserts (scale-sink.ts).
 * The same options give the same rows (a seeded generator; only the close's timestamps are the clock's).
 * Full size (3 years, 200 + 50): ~2.6 M reports, ~4 M photo rows, ~8–9 M history rows.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Db } from './connect.ts';
import { openDb } from './connect.ts';
import { SCALE_EPOCH } from './migrations-money.ts';
import { seededRandom } from './random.ts';
import { postgresSink, sqliteSink, type Sink, type Value } from './scale-sink.ts';
import { hashPassword } from '../auth/passwords.ts';
import { payrollMonth } from '../payroll/payroll.ts';
import { closeMonth } from '../payroll/close.ts';
import { confirmedOf } from '../../contract/money.ts';
import { ticketKey } from '../reports/ticket.ts';
import { monthOf } from '../../contract/money.ts';

export const SCALE_PASSWORD = 'scale12345';

export interface ScaleOptions {
  /** Days of history, ending on `end` (the CLI makes it from years: 365 a year). */
  days: number;
  /** The big carrier's trucks (one driver each). */
  trucks: number;
  /** Small carriers, 2–4 trucks each. */
  carriers: number;
  /** The last day (YYYY-MM-DD): its trips half done, pending; every month before its month closed. */
  end: string;
  seed: number;
  /** How many of the newest photo rows get a real JPEG file under DATA_DIR/files. */
  photoFiles: number;
}

export interface ScaleTarget {
  dataDir: string;
  /** PostgreSQL (an empty database); else DATA_DIR/reis.sqlite, which must not exist yet. */
  databaseUrl?: string | undefined;
}

/** Who to sign in as (every account's password is SCALE_PASSWORD) and what was written. */
export interface ScaleSummary {
  bigCompanyId: number;
  accounts: { superAdmin: string; admin: string; manager: string; driver: string; smallAdmin: string };
  counts: Record<string, number>;
  closedMonths: number;
  seconds: { rows: number; indexes: number; close: number };
}

export const BIG_EMAIL = { admin: 'admin@scale.local', manager: 'manager1@scale.local', driver: 'driver001@scale.local', superAdmin: 'super@scale.local' };

const COLUMNS = {
  companies: ['id', 'name', 'created_at', 'check_thresholds'],
  users: ['id', 'email', 'password_hash', 'name', 'phone', 'role', 'company_id', 'is_active', 'created_at'],
  transports: ['id', 'user_id', 'vehicle_number', 'vehicle_brand', 'vehicle_capacity', 'is_current', 'created_at'],
  progressive_rates: ['id', 'company_id', 'min_quantity', 'max_quantity', 'rate', 'created_at', 'valid_from'],
  manager_rates: ['id', 'manager_id', 'rate', 'updated_by', 'updated_at'],
  tasks: ['id', 'company_id', 'created_by', 'date', 'cargo', 'loading_place', 'unloading_place', 'planned_quantity', 'unit', 'status', 'rate', 'comment', 'max_drivers', 'created_at', 'updated_at'],
  task_drivers: ['id', 'task_id', 'driver_id', 'quantity', 'status', 'loading_quantity', 'unloading_quantity', 'transport_rate', 'order_index', 'accepted_at', 'created_at', 'planned_quantity', 'finished_at'],
  reports: ['id', 'association_id', 'driver_id', 'quantity', 'total_loading_quantity', 'total_unloading_quantity', 'loading_is_buyer', 'unloading_is_buyer', 'idempotency_key', 'completed_at', 'created_at', 'updated_at', 'trips', 'ticket_number', 'ticket_key', 'final', 'review_status', 'review_comment', 'reviewed_by', 'reviewed_at', 'flags'],
  report_photos: ['id', 'report_id', 'storage_key', 'mime', 'size', 'width', 'height', 'created_at', 'phash'],
  audit_log: ['id', 'company_id', 'task_id', 'entity', 'entity_id', 'action', 'changes', 'user_id', 'device_id', 'created_at'],
  daily_hours: ['id', 'driver_id', 'date', 'hours', 'created_at'],
  transfers: ['id', 'task_id', 'from_company_id', 'to_company_id', 'quantity', 'status', 'comment', 'created_by', 'created_at', 'decided_at', 'carrier_task_id', 'decline_reason', 'decided_by', 'updated_at'],
  payroll_adjustments: ['id', 'company_id', 'driver_id', 'date', 'amount_kop', 'reason', 'report_id', 'concerns_month', 'created_by', 'created_at'],
  announcements: ['id', 'company_id', 'author_id', 'title', 'body', 'created_at', 'requires_response'],
  announcement_reads: ['id', 'announcement_id', 'user_id', 'read_at'],
} as const;
type Table = keyof typeof COLUMNS;
const TABLES = Object.keys(COLUMNS) as Table[];
/** The tables whose secondary indexes are dropped for the load and made again after it. */
const BULK_TABLES: Table[] = ['tasks', 'task_drivers', 'reports', 'report_photos', 'audit_log', 'daily_hours', 'transfers'];

const SURNAMES = ['Иванов', 'Смирнов', 'Кузнецов', 'Попов', 'Васильев', 'Петров', 'Соколов', 'Михайлов', 'Новиков', 'Фёдоров', 'Морозов', 'Волков', 'Алексеев', 'Лебедев', 'Семёнов', 'Егоров', 'Павлов', 'Козлов', 'Степанов', 'Николаев', 'Орлов', 'Андреев', 'Макаров', 'Никитин', 'Захаров', 'Зайцев', 'Соловьёв', 'Борисов', 'Яковлев', 'Григорьев'];
const FIRST_NAMES = ['Александр', 'Сергей', 'Дмитрий', 'Андрей', 'Алексей', 'Максим', 'Евгений', 'Иван', 'Михаил', 'Николай', 'Владимир', 'Павел', 'Олег', 'Виктор', 'Юрий', 'Роман'];
const CARGOS = ['Щебень гранитный 5–20', 'Щебень гранитный 20–40', 'Щебень известняковый 20–40', 'Песок карьерный', 'Песок мытый', 'ПГС (песчано-гравийная смесь)', 'Грунт растительный', 'Глина', 'Асфальтобетонная смесь', 'Отсев гранитный', 'Керамзит 10–20', 'Бой бетона'];
const QUARRIES = ['Карьер «Лесной»', 'Карьер «Песчаный»', 'Карьер «Каменный лог»', 'АБЗ «Дорстрой»', 'Карьер «Северный»', 'Карьер «Ольховка»', 'Полигон «Восточный»', 'Склад «Промзона-2»', 'Карьер «Гранит-М»', 'Карьер «Бор»', 'Карьер «Рябиновый»', 'Карьер «Мста»'];
const SITES = ['ЖК «Северный парк»', 'Трасса М-8', 'Стройплощадка «Технопарк Восток»', 'Коттеджный посёлок «Речной»', 'Бетонный завод «Монолит»', 'Парк «Светлый»', 'ТЦ «Галерея»', 'ЖК «Южные ворота»', 'Логистический центр «Кольцо»', 'Мост через Клязьму', 'Школа на ул. Садовой', 'Развязка ЦКАД'];
const BRANDS: [string, number][] = [['КАМАЗ 65115', 15], ['КАМАЗ 6520', 20], ['МАЗ 6501', 20], ['Volvo FMX', 25], ['Scania P440', 25], ['Shacman X3000', 25], ['Howo T5G', 30]];
const LETTERS = 'АВЕКМНОРСТУХ';
const ADJUSTMENTS: [string, number, number][] = [['Премия за месяц без замечаний', 3000, 8000], ['Компенсация топлива', 1000, 4000], ['Штраф: опоздание на погрузку', -3000, -500], ['Удержание: повреждение тента', -6000, -2000]];

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const DAY_MS = 86_400_000;
const dayText = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** A time on a day, ISO UTC: `minutes` after that day's 00:00 UTC. */
const at = (dayMs: number, minutes: number) => new Date(dayMs + Math.round(minutes) * 60_000).toISOString();
const round1 = (x: number) => Math.round(x * 10) / 10;
const number = (x: number) => String(x).replace('.', ',');

interface Driver {
  id: number;
  companyId: number;
  capacity: number;
  /** The driver's own rate on his parts (null: the company's scale). */
  rate: number | null;
  device: string;
}

interface Company {
  id: number;
  name: string;
  admin: number;
  managers: number[];
  drivers: Driver[];
  ticketPrefix: string;
  tickets: number;
  /** Tickets already used, a few reused as planted duplicates. */
  recentTickets: string[];
}

interface Ids {
  next(table: Table): number;
}

/** The seed's writer: rows buffered per table, flushed in batches to the sink. */
class Rows implements Ids {
  private readonly buffers = new Map<Table, Value[][]>();
  private readonly counters = new Map<Table, number>();
  readonly counts: Record<string, number> = {};
  constructor(private readonly sink: Sink) {}

  next(table: Table): number {
    const id = (this.counters.get(table) ?? 0) + 1;
    this.counters.set(table, id);
    return id;
  }

  add(table: Table, row: Value[]): void {
    let buffer = this.buffers.get(table);
    if (!buffer) this.buffers.set(table, (buffer = []));
    buffer.push(row);
    this.counts[table] = (this.counts[table] ?? 0) + 1;
  }

  /** In the tables' order (COLUMNS): a row's references are written before it (PostgreSQL checks them). */
  async flush(): Promise<void> {
    for (const table of TABLES) {
      const rows = this.buffers.get(table);
      if (!rows || rows.length === 0) continue;
      await this.sink.insert(table, COLUMNS[table], rows);
      rows.length = 0;
    }
  }
}

/** A task's, part's or report's history entry, as server/audit/history.ts stores it. */
function history(rows: Rows, companyId: number, taskId: number, entity: 'task' | 'association' | 'report', entityId: number, action: 'create' | 'update', changes: [string, Value, Value][], userId: number | null, device: string | null, time: string): void {
  const json = JSON.stringify(changes.map(([field, from, to]) => ({ field, from, to })));
  rows.add('audit_log', [rows.next('audit_log'), companyId, taskId, entity, entityId, action, json, userId, device, time]);
}

export async function seedScale(target: ScaleTarget, options: ScaleOptions, log: (line: string) => void = () => undefined): Promise<ScaleSummary> {
  const random = seededRandom(options.seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const between = (min: number, max: number) => min + random() * (max - min);
  const int = (min: number, max: number) => Math.floor(between(min, max + 1));
  const hex = (digits: number) => {
    let s = '';
    while (s.length < digits) s += Math.floor(random() * 0x1_0000_0000).toString(16).padStart(8, '0');
    return s.slice(0, digits);
  };
  const uuid = () => { const h = hex(32); return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`; };
  const plate = () => `${pick([...LETTERS])}${int(100, 999)}${pick([...LETTERS])}${pick([...LETTERS])} ${pick(['77', '97', '50', '750', '190'])}`;
  const personName = () => `${pick(FIRST_NAMES)} ${pick(SURNAMES)}`;

  const started = performance.now();
  const sqliteFile = join(target.dataDir, 'reis.sqlite');
  mkdirSync(target.dataDir, { recursive: true });
  // The schema is the project's: its migrations, run by openDb, on an empty database.
  const schema = await openDb({ databaseUrl: target.databaseUrl, sqliteFile });
  if (await schema.kysely.selectFrom('users').select('id').limit(1).executeTakeFirst()) {
    await schema.close();
    throw new Error('the database is not empty: the scale seed writes only into a new one');
  }
  await schema.close();

  const sink = target.databaseUrl ? await postgresSink(target.databaseUrl) : sqliteSink(sqliteFile);
  const indexes = await sink.dropIndexes(BULK_TABLES);
  const rows = new Rows(sink);
  const passwordHash = await hashPassword(SCALE_PASSWORD);
  const endMs = Date.parse(`${options.end}T00:00:00Z`);
  const startMs = endMs - (options.days - 1) * DAY_MS;
  const setup = at(startMs - 30 * DAY_MS, 9 * 60);
  const validFromRaise = dayText(startMs + Math.floor(options.days / 2) * DAY_MS);

  const user = (email: string, name: string, role: string, companyId: number | null): number => {
    const id = rows.next('users');
    rows.add('users', [id, email, passwordHash, name, `+7 9${int(10, 99)} ${int(100, 999)}-${pad(int(0, 99))}-${pad(int(0, 99))}`, role, companyId, 1, setup]);
    return id;
  };
  const company = (name: string, trucks: number, emailDomain: string, managers: number, ticketPrefix: string): Company => {
    const id = rows.next('companies');
    rows.add('companies', [id, name, setup, null]);
    const admin = user(`admin@${emailDomain}`, personName(), 'admin', id);
    const managerIds = Array.from({ length: managers }, (_, i) => user(`manager${i + 1}@${emailDomain}`, personName(), 'manager', id));
    for (const m of managerIds) rows.add('manager_rates', [rows.next('manager_rates'), m, int(8, 15), admin, setup]);
    const drivers: Driver[] = [];
    for (let i = 0; i < trucks; i++) {
      const driverId = user(`driver${pad(i + 1, 3)}@${emailDomain}`, personName(), 'driver', id);
      const [brand, capacity] = pick(BRANDS);
      rows.add('transports', [rows.next('transports'), driverId, plate(), brand, capacity, 1, setup]);
      drivers.push({ id: driverId, companyId: id, capacity, rate: random() < 0.35 ? int(42, 50) * 10 : null, device: uuid() });
    }
    // The scale: one version from the epoch, a raise half way through the history.
    for (const [from, raise] of [[SCALE_EPOCH, 0], [validFromRaise, 30]] as const) {
      for (const [min, max, rate] of [[0, 1000, 450], [1000, 3000, 480], [3000, null, 520]] as const) {
        rows.add('progressive_rates', [rows.next('progressive_rates'), id, min, max, rate + raise, setup, from]);
      }
    }
    return { id, name, admin, managers: managerIds, drivers, ticketPrefix, tickets: 0, recentTickets: [] };
  };

  user(BIG_EMAIL.superAdmin, 'Анна Кузнецова', 'super-admin', null);
  const big = company('ООО «МагистральНеруд»', options.trucks, 'scale.local', 4, 'МН');
  const small: Company[] = [];
  for (let c = 0; c < options.carriers; c++) small.push(company(`ООО «Перевозчик-${pad(c + 1)}»`, int(2, 4), `c${pad(c + 1)}.scale.local`, 1, `П${c + 1}-`));
  const companies = [big, ...small];
  await rows.flush();

  const ticket = (c: Company): { number: string; duplicate: boolean } => {
    if (c.recentTickets.length > 50 && random() < 0.002) return { number: pick(c.recentTickets), duplicate: true };
    const number = `${c.ticketPrefix}${pad(++c.tickets, 7)}`;
    c.recentTickets.push(number);
    if (c.recentTickets.length > 500) c.recentTickets.shift();
    return { number, duplicate: false };
  };

  interface Part { driver: Driver; trips: number }
  /** One task of a day with its drivers' parts and every trip's report; `carrier` links it to a transfer. */
  const writeTask = (c: Company, dayMs: number, age: number, parts: Part[], note: string | null): { taskId: number; quantity: number; done: boolean } => {
    const date = dayText(dayMs);
    const manager = pick(c.managers.length ? c.managers : [c.admin]);
    const taskId = rows.next('tasks');
    const cargo = pick(CARGOS);
    const from = pick(QUARRIES);
    const to = `${pick(SITES)}, уч. ${int(1, 40)}`;
    const rate = int(55, 90) * 10;
    const planned = Math.max(10, Math.round(parts.reduce((s, p) => s + p.trips * p.driver.capacity, 0) / 10) * 10);
    const created = at(dayMs - DAY_MS, 15 * 60 + int(0, 180));
    const maxDrivers = parts.length > 1 ? parts.length : null;
    history(rows, c.id, taskId, 'task', taskId, 'create', [['date', null, date], ['cargo', null, cargo], ['loading_place', null, from], ['unloading_place', null, to], ['planned_quantity', null, planned], ['unit', null, 'т'], ['rate', null, rate], ['status', null, 'open'], ...(note ? [['comment', null, note] as [string, Value, Value]] : []), ...(maxDrivers ? [['max_drivers', null, maxDrivers] as [string, Value, Value]] : [])], manager, null, created);
    let taskQuantity = 0;
    let allDone = true;
    let lastTime = created;
    parts.forEach((part, order) => {
      const d = part.driver;
      const associationId = rows.next('task_drivers');
      history(rows, c.id, taskId, 'association', associationId, 'create', [['driver_id', null, d.id], ['status', null, 'accepted'], ...(d.rate !== null ? [['transport_rate', null, d.rate] as [string, Value, Value]] : [])], manager, null, created);
      // The last day is half done: its parts go on.
      const trips = age === 0 ? Math.floor(part.trips / 2) : part.trips;
      const finished = trips === part.trips;
      let quantity = 0;
      let loading = 0;
      let t = 5 * 60 + int(0, 60) + order * 20;
      for (let k = 0; k < trips; k++) {
        t += between(55, 95);
        const completed = at(dayMs, t);
        const late = random() < 0.01;
        const createdAt = at(dayMs, t + (late ? int(26 * 60, 40 * 60) : int(1, 25)));
        const overload = random() < 0.004;
        const q = round1(d.capacity * (overload ? between(1.08, 1.15) : between(0.86, 1.02)));
        const mismatch = random() < 0.003;
        const load = round1(q + (mismatch ? between(1, 2.5) : between(0, 0.3)));
        const tk = ticket(c);
        const flags: { code: string; detail: string }[] = [];
        if (overload) flags.push({ code: 'over_capacity', detail: `${number(q)} т за рейс при вместимости ${d.capacity} т (допуск 5 %)` });
        if (mismatch) flags.push({ code: 'loading_unloading_mismatch', detail: `погрузка ${number(load)} т, выгрузка ${number(q)} т (допуск 2 %)` });
        if (tk.duplicate) flags.push({ code: 'duplicate_ticket', detail: `талон ${tk.number} уже есть в другом отчёте` });
        if (late) flags.push({ code: 'late_filing', detail: 'подан позже 24 ч после рейса' });
        const final = finished && k === trips - 1 ? 1 : 0;
        // Reviews: the older days are approved (a few disputed or left), the last ones wait.
        const roll = random();
        const review = age === 0 ? 'pending' : age === 1 ? (roll < 0.5 ? 'approved' : 'pending') : age <= 3 ? (roll < 0.85 ? 'approved' : 'pending') : roll < 0.003 ? 'disputed' : roll < 0.005 ? 'pending' : 'approved';
        const reviewer = review === 'pending' ? null : pick(c.managers.length ? c.managers : [c.admin]);
        const reviewedAt = review === 'pending' ? null : at(dayMs + DAY_MS, 6 * 60 + int(0, 240));
        const reportId = rows.next('reports');
        rows.add('reports', [reportId, associationId, d.id, q, load, q, 0, 0, uuid(), completed, createdAt, reviewedAt ?? createdAt, 1, tk.number, ticketKey(tk.number), final, review, review === 'disputed' ? 'Талон не читается, пришлите фото ещё раз' : null, reviewer, reviewedAt, JSON.stringify(flags)]);
        const photos = random() < 0.55 ? 1 : random() < 0.9 ? 2 : 3;
        for (let p = 0; p < photos; p++) {
          const portrait = random() < 0.3;
          rows.add('report_photos', [rows.next('report_photos'), reportId, `photos/${uuid()}.jpg`, 'image/jpeg', int(140_000, 330_000), portrait ? 768 : 1024, portrait ? 1024 : 768, createdAt, hex(16)]);
        }
        history(rows, c.id, taskId, 'report', reportId, 'create', [['quantity', null, q], ['trips', null, 1], ['ticket_number', null, tk.number], ['total_loading_quantity', null, load], ['total_unloading_quantity', null, q], ...(final ? [['final', null, 1] as [string, Value, Value]] : [])], d.id, d.device, createdAt);
        const newQuantity = round1(quantity + q);
        const newLoading = round1(loading + load);
        history(rows, c.id, taskId, 'association', associationId, 'update', [['quantity', k === 0 ? null : quantity, newQuantity], ['loading_quantity', k === 0 ? null : loading, newLoading], ['unloading_quantity', k === 0 ? null : quantity, newQuantity], ...(final ? [['status', k === 0 ? 'accepted' : 'in_progress', 'completed'] as [string, Value, Value]] : k === 0 ? [['status', 'accepted', 'in_progress'] as [string, Value, Value]] : [])], d.id, d.device, createdAt);
        if (review !== 'pending') history(rows, c.id, taskId, 'report', reportId, 'update', [['review_status', 'pending', review], ...(review === 'disputed' ? [['review_comment', null, 'Талон не читается, пришлите фото ещё раз'] as [string, Value, Value]] : [])], reviewer, null, reviewedAt as string);
        quantity = newQuantity;
        loading = newLoading;
        lastTime = createdAt > lastTime ? createdAt : lastTime;
      }
      const status = finished ? 'completed' : trips > 0 ? 'in_progress' : 'accepted';
      if (!finished) allDone = false;
      rows.add('task_drivers', [associationId, taskId, d.id, trips > 0 ? quantity : null, status, trips > 0 ? loading : null, trips > 0 ? quantity : null, d.rate, order, created, created, null, finished ? at(dayMs, t + 10) : null]);
      taskQuantity += quantity;
    });
    const status = allDone ? 'completed' : 'in_progress';
    if (allDone) history(rows, c.id, taskId, 'task', taskId, 'update', [['status', 'in_progress', 'completed']], null, null, lastTime);
    rows.add('tasks', [taskId, c.id, manager, date, cargo, from, to, planned, 'т', status, rate, note, maxDrivers, created, lastTime]);
    return { taskId, quantity: round1(taskQuantity), done: allDone };
  };

  const dayOf = (c: Company, dayMs: number, age: number, carrierNote: (c: Company) => string | null) => {
    const weekday = new Date(dayMs).getUTCDay();
    const working = c.drivers.filter(() => random() < (weekday === 0 ? 0.2 : 0.92));
    // Shuffle, then groups of 1–3 drivers per task; a quarter of them also take a second, shorter task.
    for (let i = working.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [working[i], working[j]] = [working[j] as Driver, working[i] as Driver];
    }
    const date = dayText(dayMs);
    for (const d of working) rows.add('daily_hours', [rows.next('daily_hours'), d.id, date, int(8, 12), at(dayMs, 17 * 60 + int(0, 120))]);
    for (let i = 0; i < working.length; ) {
      const size = Math.min(working.length - i, random() < 0.5 ? 1 : random() < 0.7 ? 2 : 3);
      const group = working.slice(i, i + size);
      i += size;
      const second = group.filter(() => random() < 0.25);
      const parts = group.map((driver) => ({ driver, trips: second.includes(driver) ? int(4, 7) : int(6, 11) }));
      writeTask(c, dayMs, age, parts, carrierNote(c));
      for (const driver of second) writeTask(c, dayMs, age, [{ driver, trips: int(2, 4) }], null);
    }
  };

  const ageOf = (dayMs: number) => Math.round((endMs - dayMs) / DAY_MS);
  log(`${companies.length} companies, ${companies.reduce((s, c) => s + c.drivers.length, 0)} drivers, ${options.days} days up to ${options.end}`);
  for (let day = 0; day < options.days; day++) {
    const dayMs = startMs + day * DAY_MS;
    const age = ageOf(dayMs);
    for (const c of companies) dayOf(c, dayMs, age, () => null);
    // The big carrier hands a few tasks a day to the small ones: most accepted (the receiver's own task, done by
    // its drivers), some declined, the last two days' still pending.
    const transfers = small.length ? int(0, 3) : 0;
    for (let k = 0; k < transfers; k++) {
      const receiver = pick(small);
      const quantity = int(3, 8) * 10;
      const sourceId = rows.next('tasks');
      const created = at(dayMs - DAY_MS, 14 * 60 + int(0, 60));
      const cargo = pick(CARGOS);
      const from = pick(QUARRIES);
      const to = `${pick(SITES)}, уч. ${int(1, 40)}`;
      const rate = int(55, 90) * 10;
      const manager = pick(big.managers);
      const transferId = rows.next('transfers');
      const state = age <= 1 ? 'pending' : random() < 0.9 ? 'accepted' : 'declined';
      let carrierTask: number | null = null;
      let status = 'open';
      if (state === 'accepted') {
        const driver = pick(receiver.drivers);
        const done = writeTask(receiver, dayMs, age, [{ driver, trips: Math.max(1, Math.round(quantity / driver.capacity)) }], `Передано компанией «${big.name}» (задача №${sourceId}, передача №${transferId})`);
        carrierTask = done.taskId;
        status = done.done ? 'completed' : 'in_progress';
      }
      rows.add('tasks', [sourceId, big.id, manager, dayText(dayMs), cargo, from, to, quantity, 'т', status, rate, null, null, created, created]);
      history(rows, big.id, sourceId, 'task', sourceId, 'create', [['date', null, dayText(dayMs)], ['cargo', null, cargo], ['loading_place', null, from], ['unloading_place', null, to], ['planned_quantity', null, quantity], ['unit', null, 'т'], ['rate', null, rate], ['status', null, 'open']], manager, null, created);
      const decided = state === 'pending' ? null : at(dayMs - DAY_MS, 16 * 60 + int(0, 60));
      rows.add('transfers', [transferId, sourceId, big.id, receiver.id, quantity, state, 'Не хватает машин', manager, created, decided, carrierTask, state === 'declined' ? 'Все машины заняты' : null, decided ? receiver.admin : null, decided]);
    }
    const month = dayText(dayMs).slice(0, 7);
    const lastOfMonth = dayText(dayMs + DAY_MS).slice(0, 7) !== month;
    if (lastOfMonth || day === 0) {
      // A month's adjustments (dated in it) and the big carrier's announcements, read by most drivers.
      for (const c of companies) {
        const n = c === big ? 12 : random() < 0.3 ? 1 : 0;
        for (let i = 0; i < n; i++) {
          const [reason, min, max] = pick(ADJUSTMENTS);
          rows.add('payroll_adjustments', [rows.next('payroll_adjustments'), c.id, pick(c.drivers).id, dayText(dayMs), int(min, max) * 100, reason, null, null, c.admin, at(dayMs, 12 * 60)]);
        }
      }
      for (let i = 0; i < 4; i++) {
        const id = rows.next('announcements');
        rows.add('announcements', [id, big.id, pick(big.managers), `Объявление ${month}-${i + 1}`, 'Плановый техосмотр на базе: согласуйте время с диспетчером.', at(dayMs, 8 * 60), i === 0 ? 1 : 0]);
        for (const d of big.drivers) if (random() < 0.8) rows.add('announcement_reads', [rows.next('announcement_reads'), id, d.id, at(dayMs, 9 * 60 + int(0, 600))]);
      }
    }
    await rows.flush();
    if (day % 30 === 29) {
      await sink.checkpoint();
      log(`  ${dayText(dayMs)}: ${rows.counts.reports ?? 0} reports, ${rows.counts.report_photos ?? 0} photos, ${rows.counts.audit_log ?? 0} history rows (${Math.round((performance.now() - started) / 1000)} s)`);
    }
  }
  await rows.flush();
  const rowsDone = performance.now();
  log(`rows written; making ${indexes.length} indexes again`);
  await sink.checkpoint();
  for (const statement of indexes) await sink.exec(statement);
  await sink.finish(TABLES);
  const indexesDone = performance.now();

  // A few of the newest photos as real files: the photo endpoint and the retention job have something to read.
  if (options.photoFiles > 0) {
    const db = await openDb({ databaseUrl: target.databaseUrl, sqliteFile });
    try {
      const keys = await db.kysely.selectFrom('report_photos').select('storage_key').orderBy('id', 'desc').limit(options.photoFiles).execute();
      mkdirSync(join(target.dataDir, 'files', 'photos'), { recursive: true });
      const width = 1024;
      const height = 768;
      const pixels = Buffer.alloc(width * height * 3);
      for (const [i, { storage_key }] of keys.entries()) {
        for (let p = 0; p < pixels.length; p++) pixels[p] = (p * (i + 3) + (p >> 11) * 7 + Math.floor(random() * 24)) & 0xff;
        writeFileSync(join(target.dataDir, 'files', storage_key), await sharp(pixels, { raw: { width, height, channels: 3 } }).jpeg({ quality: 70 }).toBuffer());
      }
    } finally {
      await db.close();
    }
  }

  // Every month before the last day's is closed by the project's own close (it prices and stores the lines).
  const db = await openDb({ databaseUrl: target.databaseUrl, sqliteFile });
  let closedMonths = 0;
  try {
    const months: string[] = [];
    for (let m = monthOf(dayText(startMs)); m < monthOf(options.end); ) {
      months.push(m);
      const [y, mo] = m.split('-').map(Number) as [number, number];
      m = mo === 12 ? `${y + 1}-01` : `${y}-${pad(mo + 1)}`;
    }
    for (const month of months) {
      for (const c of companies) {
        const admin = { id: c.admin, email: '', name: '', role: 'admin' as const, company_id: c.id, device_id: 'scale-seed' };
        const company = { id: c.id, name: c.name };
        await closeMonth(db, admin, company, month, confirmedOf(await payrollMonth(db, company, month)));
        closedMonths += 1;
      }
      log(`  closed ${month} for ${companies.length} companies (${Math.round((performance.now() - started) / 1000)} s)`);
    }
    const counts: Record<string, number> = {};
    for (const table of [...TABLES, 'payroll_lines', 'payroll_months'] as const) {
      const row = await db.kysely.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      counts[table] = Number(row.n);
    }
    const done = performance.now();
    return {
      bigCompanyId: big.id,
      accounts: { ...BIG_EMAIL, smallAdmin: small.length ? 'admin@c01.scale.local' : BIG_EMAIL.admin },
      counts,
      closedMonths,
      seconds: { rows: Math.round((rowsDone - started) / 1000), indexes: Math.round((indexesDone - rowsDone) / 1000), close: Math.round((done - indexesDone) / 1000) },
    };
  } finally {
    await db.close();
  }
}

/** Opens a seeded database the way the server does (for the bench and the test). */
export async function openScaleDb(target: ScaleTarget): Promise<Db> {
  return openDb({ databaseUrl: target.databaseUrl, sqliteFile: join(target.dataDir, 'reis.sqlite') });
}
