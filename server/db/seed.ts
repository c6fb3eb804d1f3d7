/**
 * Demo data for `npm start`: two companies, one account per role, more drivers, tasks around today
 * (open ones the demo driver can take, three already taken, a week of finished ones), pending sign-ups,
 * a progressive rate table, two announcements (one asks drivers to respond) and a transfer waiting
 * for company 1's answer; the registers (seed-registers.ts): counterparties with their requisites, places with
 * points, the drivers' vehicles in the fleet, the tasks linked to them. It only ever fills an EMPTY database.
 */
import type { Kysely } from 'kysely';
import type { Role } from '../../contract/roles.ts';
import type { Db } from './connect.ts';
import { nowIso } from './connect.ts';
import type { Database } from './schema.ts';
import { hashPassword } from '../auth/passwords.ts';
import { createAccount } from '../users/accounts.ts';
import { KARPOV_COUNTERPARTIES, KARPOV_PLACES, NORTH_COUNTERPARTIES, NORTH_PLACES, seedPlaces, seedVehicle, type SeededPlace } from './seed-registers.ts';
import { ticketKey } from '../reports/ticket.ts';

export const DEMO_PASSWORD = 'demo12345';

export interface DemoAccount {
  email: string;
  role: Role;
  name: string;
}

export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  { email: 'driver@demo.local', role: 'driver', name: 'Иван Петров' },
  { email: 'manager@demo.local', role: 'manager', name: 'Ольга Смирнова' },
  { email: 'admin@demo.local', role: 'admin', name: 'Сергей Волков' },
  { email: 'super@demo.local', role: 'super-admin', name: 'Анна Кузнецова' },
];

/** The server's local date, `offsetDays` from today, as YYYY-MM-DD (the tasks' date format). */
function localDate(offsetDays: number): string {
  const d = new Date();
  d.setDate(d.getDate() + offsetDays);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** A time on a day `offsetDays` from today, ISO (UTC) like every time column. */
function timeOn(offsetDays: number, hour: number): string {
  const d = new Date();
  d.setDate(d.getDate() + offsetDays);
  d.setHours(hour, 0, 0, 0);
  return d.toISOString();
}

interface TaskSeed {
  day: number;
  cargo: string;
  from: string;
  to: string;
  quantity: number;
  rate: number;
  status: 'open' | 'in_progress' | 'completed';
  maxDrivers?: number;
  comment?: string;
}

/**
 * A task linked to its places, the loading place's owner its shipper, the unloading place's owner its customer and
 * consignee.
 */
async function insertTask(trx: Kysely<Database>, companyId: number, createdBy: number, places: Map<string, SeededPlace> | null, t: TaskSeed): Promise<number> {
  const now = nowIso();
  const from = places?.get(t.from);
  const to = places?.get(t.to);
  if (places && (!from || !to)) throw new Error(`demo seed: no place card for «${from ? t.to : t.from}»`);
  const links =
    from && to ? { loading_place_id: from.id, unloading_place_id: to.id, shipper_id: from.owner, customer_id: to.owner, consignee_id: to.owner } : {};
  const { id } = await trx
    .insertInto('tasks')
    .values({
      company_id: companyId,
      created_by: createdBy,
      date: localDate(t.day),
      cargo: t.cargo,
      loading_place: t.from,
      unloading_place: t.to,
      planned_quantity: t.quantity,
      unit: 'т',
      status: t.status,
      rate: t.rate,
      comment: t.comment ?? null,
      max_drivers: t.maxDrivers ?? null,
      ...links,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

interface AssociationSeed {
  taskId: number;
  driverId: number;
  order: number;
  /** The driver's own rate; null: the company's scale. */
  rate: number | null;
  status: 'accepted' | 'in_progress' | 'completed';
  day: number;
  review?: 'approved' | 'pending';
  /** Finished work: the driver's quantity and the weighed loading and unloading totals. */
  done?: { quantity: number; loading: number; unloading: number };
}

async function insertAssociation(trx: Kysely<Database>, a: AssociationSeed): Promise<void> {
  const { id } = await trx
    .insertInto('task_drivers')
    .values({
      task_id: a.taskId,
      driver_id: a.driverId,
      quantity: a.done?.quantity ?? null,
      status: a.status,
      loading_quantity: a.done?.loading ?? null,
      unloading_quantity: a.done?.unloading ?? null,
      transport_rate: a.rate,
      order_index: a.order,
      accepted_at: timeOn(a.day - 1, 18),
      created_at: timeOn(a.day - 1, 18),
      // Finished work was finished when its last trip was reported (docs/loads.md).
      finished_at: a.status === 'completed' ? timeOn(a.day, 17) : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (!a.done) return;
  await trx
    .insertInto('reports')
    .values({
      association_id: id,
      driver_id: a.driverId,
      quantity: a.done.quantity,
      total_loading_quantity: a.done.loading,
      total_unloading_quantity: a.done.unloading,
      loading_is_buyer: 0,
      unloading_is_buyer: 0,
      idempotency_key: null,
      completed_at: timeOn(a.day, 17),
      created_at: timeOn(a.day, 17),
      updated_at: timeOn(a.day, 17),
      // A day's work in one report: as many trips as a 15–20 т truck needs, the last of them.
      trips: Math.max(1, Math.ceil(a.done.quantity / 15)),
      final: 1,
      ticket_number: `Т-${id}`,
      ticket_key: ticketKey(`Т-${id}`),
      review_status: a.review ?? 'pending',
      reviewed_at: a.review === 'approved' ? timeOn(a.day, 19) : null,
    })
    .execute();
}

export interface SeedOptions {
  /**
   * false: the demo as a database before migration 012 held it — no registers, no links (the migration's test seeds
   * it at 011, then migrates). True unless said.
   */
  registers?: boolean;
}

/** Fills an empty database; answers false (and changes nothing) when any user exists. */
export async function seedDemo(db: Db, options: SeedOptions = {}): Promise<boolean> {
  const registers = options.registers ?? true;
  const anyUser = await db.kysely.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (anyUser) return false;
  // One hash for every demo account: they share the password, and argon2 is deliberately slow.
  const passwordHash = await hashPassword(DEMO_PASSWORD);

  await db.kysely.transaction().execute(async (trx) => {
    const now = nowIso();
    const company = async (name: string) =>
      (await trx.insertInto('companies').values({ name, created_at: now }).returning('id').executeTakeFirstOrThrow()).id;
    const north = await company('ООО «СеверТранс»');
    const karpov = await company('ИП Карпов Логистика');

    const account = (email: string, name: string, role: Role, companyId: number | null, phone: string) =>
      createAccount(trx, { email, password_hash: passwordHash, name, phone, role, company_id: companyId });
    const [driverSeed, managerSeed, adminSeed, superSeed] = DEMO_ACCOUNTS as [DemoAccount, DemoAccount, DemoAccount, DemoAccount];
    const driver = await account(driverSeed.email, driverSeed.name, 'driver', north, '+7 912 345-67-89');
    const manager = await account(managerSeed.email, managerSeed.name, 'manager', north, '+7 912 100-20-30');
    await account(adminSeed.email, adminSeed.name, 'admin', north, '+7 912 200-30-40');
    await account(superSeed.email, superSeed.name, 'super-admin', null, '+7 900 000-00-01');
    await seedVehicle(trx, north, driver, { plate: 'А123ВС 77', make: 'КАМАЗ', model: '65115', body_type: 'dump_truck', ownership: 'own', capacity_t: 15, volume_m3: 10 }, true, registers);
    await seedVehicle(trx, north, driver, { plate: 'В456ОР 77', make: 'МАЗ', model: '6501', body_type: 'dump_truck', ownership: 'leasing', capacity_t: 20, volume_m3: 16 }, false, registers);

    const sokolov = await account('sokolov@demo.local', 'Алексей Соколов', 'driver', north, '+7 915 111-22-33');
    await seedVehicle(trx, north, sokolov, { plate: 'Е789КХ 750', make: 'Volvo', model: 'FMX', body_type: 'dump_truck', ownership: 'leasing', capacity_t: 25, volume_m3: 20 }, true, registers);
    const morozov = await account('morozov@demo.local', 'Дмитрий Морозов', 'driver', north, '+7 916 222-33-44');
    await seedVehicle(trx, north, morozov, { plate: 'К321МН 50', make: 'Scania', model: 'P440', body_type: 'tractor_dump_semitrailer', ownership: 'rent', capacity_t: 20, volume_m3: 18 }, true, registers);
    const nkarpov = await account('karpov@demo.local', 'Николай Карпов', 'driver', karpov, '+7 917 333-44-55');
    await seedVehicle(trx, karpov, nkarpov, { plate: 'О654ТТ 99', make: 'Shacman', model: 'X3000', body_type: 'dump_truck', ownership: 'own', capacity_t: 25, volume_m3: 20 }, true, registers);

    const northPlaces = registers ? await seedPlaces(trx, north, NORTH_COUNTERPARTIES, NORTH_PLACES) : null;
    const karpovPlaces = registers ? await seedPlaces(trx, karpov, KARPOV_COUNTERPARTIES, KARPOV_PLACES) : null;

    const task = (t: TaskSeed) => insertTask(trx, north, manager, northPlaces, t);
    // Open tasks the demo driver can accept.
    await task({ day: 0, cargo: 'Щебень гранитный 5–20', from: 'Карьер «Лесной»', to: 'ЖК «Северный парк», корп. 3', quantity: 120, rate: 650, status: 'open', maxDrivers: 3 });
    const sand = await task({ day: 0, cargo: 'Песок карьерный', from: 'Карьер «Песчаный»', to: 'Стройплощадка «Технопарк Восток»', quantity: 200, rate: 560, status: 'in_progress' });
    await insertAssociation(trx, { taskId: sand, driverId: sokolov, order: 1, rate: 420, status: 'accepted', day: 0 });
    await task({ day: 1, cargo: 'Щебень известняковый 20–40', from: 'Карьер «Каменный лог»', to: 'Трасса М-8, 47 км (ремонт дороги)', quantity: 300, rate: 600, status: 'open', maxDrivers: 4 });
    await task({ day: 2, cargo: 'ПГС (песчано-гравийная смесь)', from: 'Карьер «Лесной»', to: 'Коттеджный посёлок «Речной»', quantity: 90, rate: 580, status: 'open', maxDrivers: 2 });
    await task({ day: 3, cargo: 'Асфальтобетонная смесь', from: 'АБЗ «Дорстрой»', to: 'ул. Заводская, 12 (благоустройство)', quantity: 60, rate: 850, status: 'open', maxDrivers: 2, comment: 'Выезд с АБЗ не позднее 7:30' });

    // Three tasks the demo driver has already accepted, in his order.
    const taken: TaskSeed[] = [
      { day: 0, cargo: 'Щебень гранитный 20–40', from: 'Карьер «Лесной»', to: 'ЖК «Северный парк», корп. 5', quantity: 80, rate: 660, status: 'in_progress' },
      { day: 0, cargo: 'Песок мытый', from: 'Карьер «Песчаный»', to: 'Бетонный завод «Монолит»', quantity: 60, rate: 560, status: 'in_progress' },
      { day: 1, cargo: 'Грунт растительный', from: 'Полигон «Восточный»', to: 'Парк «Светлый»', quantity: 45, rate: 500, status: 'in_progress' },
    ];
    for (const [i, t] of taken.entries()) {
      const id = await task(t);
      // His own rate on the first; the company's scale on the others.
      await insertAssociation(trx, { taskId: id, driverId: driver, order: i + 1, rate: i === 0 ? 460 : null, status: 'accepted', day: t.day });
    }

    // The past week's finished work, with quantities and reports.
    // [the task (its rate is the customer's price), the driver, what was done, the driver's own rate (null: the scale), the review]
    const finished: [TaskSeed, number, { quantity: number; loading: number; unloading: number }, number | null, 'approved' | 'pending'][] = [
      [{ day: -1, cargo: 'Щебень гранитный 5–20', from: 'Карьер «Лесной»', to: 'ЖК «Северный парк», корп. 3', quantity: 45, rate: 650, status: 'completed' }, driver, { quantity: 44.5, loading: 45.2, unloading: 44.5 }, 460, 'approved'],
      [{ day: -2, cargo: 'Песок карьерный', from: 'Карьер «Песчаный»', to: 'Стройплощадка «Технопарк Восток»', quantity: 30, rate: 560, status: 'completed' }, driver, { quantity: 29.8, loading: 30.1, unloading: 29.8 }, null, 'pending'],
      [{ day: -4, cargo: 'Щебень известняковый 20–40', from: 'Карьер «Каменный лог»', to: 'Трасса М-8, 47 км (ремонт дороги)', quantity: 60, rate: 600, status: 'completed' }, driver, { quantity: 58.6, loading: 59, unloading: 58.6 }, null, 'approved'],
      [{ day: -6, cargo: 'ПГС (песчано-гравийная смесь)', from: 'Карьер «Лесной»', to: 'Коттеджный посёлок «Речной»', quantity: 40, rate: 580, status: 'completed' }, morozov, { quantity: 39.4, loading: 40, unloading: 39.4 }, 450, 'approved'],
    ];
    for (const [t, driverId, done, ownRate, review] of finished) {
      const id = await task(t);
      await insertAssociation(trx, { taskId: id, driverId, order: 0, rate: ownRate, status: 'completed', day: t.day, done, review });
      await trx.insertInto('daily_hours').values({ driver_id: driverId, date: localDate(t.day), hours: 9, created_at: timeOn(t.day, 19) }).execute();
    }

    // The other company's work, which company 1's people never see.
    const keramzit = await insertTask(trx, karpov, nkarpov, karpovPlaces, { day: 1, cargo: 'Керамзит фракции 10–20', from: 'Склад «Промзона-2»', to: 'ТЦ «Галерея», пристройка', quantity: 40, rate: 500, status: 'open', maxDrivers: 2 });
    // …except what it hands to company 1: a transfer waiting for its answer on /carrier-transfers.
    await trx
      .insertInto('transfers')
      .values({
        task_id: keramzit,
        from_company_id: karpov,
        to_company_id: north,
        quantity: 20,
        status: 'pending',
        comment: 'Не хватает машин на завтра',
        created_by: null,
        created_at: now,
        decided_at: null,
        carrier_task_id: null,
        decline_reason: null,
        decided_by: null,
        updated_at: null,
      })
      .execute();

    const request = (email: string, name: string, phone: string, role: Role, vehicle: [string, string, number] | null) =>
      trx
        .insertInto('registration_requests')
        .values({
          email, password_hash: passwordHash, name, phone, company_id: north, role,
          vehicle_number: vehicle?.[0] ?? null, vehicle_brand: vehicle?.[1] ?? null, vehicle_capacity: vehicle?.[2] ?? null,
          status: 'pending', created_at: now, approved_at: null, approved_by: null, user_id: null,
        })
        .execute();
    await request('pavel.orlov@example.ru', 'Павел Орлов', '+7 918 444-55-66', 'driver', ['Т908УК 77', 'КАМАЗ 6520', 20]);
    await request('marina.lebedeva@example.ru', 'Марина Лебедева', '+7 919 555-66-77', 'manager', null);

    // The demo manager's salary rate: 15 ₽ per tonne completed on the tasks she created.
    await trx.insertInto('manager_rates').values({ manager_id: manager, rate: 15, updated_by: null, updated_at: now }).execute();
    for (const [min, max, rate] of [[0, 100, 450], [100, 300, 480], [300, null, 520]] as const) {
      await trx.insertInto('progressive_rates').values({ company_id: north, min_quantity: min, max_quantity: max, rate, created_at: now }).execute();
    }
    await trx
      .insertInto('announcements')
      .values({
        company_id: north,
        author_id: manager,
        title: 'Плановый техосмотр',
        body: 'В пятницу с 8:00 до 12:00 на базе проходит плановый техосмотр. Водителям с текущими заявками — согласовать время с диспетчером.',
        created_at: now,
      })
      .execute();
    await trx
      .insertInto('announcements')
      .values({
        company_id: north,
        author_id: manager,
        title: 'Работа в субботу',
        body: 'В субботу нужны три машины на вывоз грунта с ЖК «Северный парк». Ответьте, сможете ли выйти и с какого часа.',
        requires_response: 1,
        created_at: now,
      })
      .execute();
  });
  return true;
}
