/**
 * /users/drivers: staff manage the drivers of their company (a super-admin, of any company). Drivers
 * made here are active at once. DELETE ends their sessions at once; a driver with history (assignments,
 * reports, logged hours) is deactivated so that history stays, one without is erased; the answer says which.
 */
import type { RouteModule } from '../context.ts';
import { driverCalls } from '../../contract/calls/users.ts';
import type { DriverRemoval } from '../../contract/entities.ts';
import type { DriverUpdate } from '../../contract/payloads.ts';
import type { Kysely, Updateable } from 'kysely';
import type { Database, TransportsTable, UserUpdate } from '../db/schema.ts';
import { type AuthUser, inScope } from '../auth/guard.ts';
import { hashPassword } from '../auth/passwords.ts';
import { badRequest, conflict, forbidden, notFound } from '../errors.ts';
import { EMAIL_TAKEN, addVehicle, createActiveAccount } from '../users/accounts.ts';
import { localToday } from '../tasks/scope.ts';
import { loadUserWire, loadUserWires } from '../users/wire.ts';
import { registerArea } from './define.ts';

const HAS_HISTORY = 'У водителя есть задачи или отчёты: он отключён, а не удалён, и его история сохранена';
const ERASED = 'Водитель удалён: у него не было задач и отчётов';

export const driverRoutes: RouteModule = (app, ctx) => {
  const { db } = ctx;

  /** The driver with this id, when the user may manage them; otherwise 404. */
  async function managedDriver(user: AuthUser, id: number) {
    const row = await db.kysely
      .selectFrom('users')
      .select(['id', 'company_id'])
      .where('id', '=', id)
      .where('role', '=', 'driver')
      .executeTakeFirst();
    if (!row || !inScope(user, row.company_id)) throw notFound('Водитель не найден');
    return row;
  }

  /** The company a new driver joins: the staff member's own, or the one a super-admin names. */
  async function targetCompany(user: AuthUser, given: number | null | undefined): Promise<number> {
    if (user.role !== 'super-admin') {
      if (user.company_id === null) throw forbidden('Вы не привязаны к компании');
      if (given && given !== user.company_id) throw forbidden('Можно добавлять водителей только в свою компанию');
      return user.company_id;
    }
    if (!given) throw badRequest('company_id: обязательное поле');
    const company = await db.kysely.selectFrom('companies').select('id').where('id', '=', given).executeTakeFirst();
    if (!company) throw badRequest('company_id: компания не найдена');
    return given;
  }

  /** Drivers among `ids` with any assignment, report or logged hours: those are deactivated, never erased. */
  async function withHistory(ids: readonly number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const [assigned, reported, hours] = await Promise.all([
      db.kysely.selectFrom('task_drivers').select('driver_id as id').distinct().where('driver_id', 'in', ids).execute(),
      db.kysely.selectFrom('reports').select('driver_id as id').distinct().where('driver_id', 'in', ids).execute(),
      db.kysely.selectFrom('daily_hours').select('driver_id as id').distinct().where('driver_id', 'in', ids).execute(),
    ]);
    return new Set([...assigned, ...reported, ...hours].map((r) => r.id));
  }

  /** Vehicle fields edit the current vehicle in place; a driver without one gets one (a number is needed). */
  async function updateCurrentVehicle(trx: Kysely<Database>, driverId: number, body: DriverUpdate): Promise<void> {
    const sent = body.vehicle_number !== undefined || body.vehicle_brand !== undefined || body.vehicle_capacity !== undefined;
    if (!sent) return;
    const current = await trx
      .selectFrom('transports')
      .select('id')
      .where('user_id', '=', driverId)
      .where('is_current', '=', 1)
      .executeTakeFirst();
    if (current) {
      const vehicle: Updateable<TransportsTable> = {};
      if (body.vehicle_number !== undefined) {
        if (!body.vehicle_number) throw badRequest('vehicle_number: укажите госномер');
        vehicle.vehicle_number = body.vehicle_number;
      }
      if (body.vehicle_brand !== undefined) vehicle.vehicle_brand = body.vehicle_brand ?? '';
      if (body.vehicle_capacity !== undefined) vehicle.vehicle_capacity = body.vehicle_capacity ?? null;
      await trx.updateTable('transports').set(vehicle).where('id', '=', current.id).execute();
      return;
    }
    if (!body.vehicle_number) throw badRequest('vehicle_number: укажите госномер, чтобы добавить транспорт');
    await addVehicle(
      trx,
      driverId,
      { vehicle_number: body.vehicle_number, vehicle_brand: body.vehicle_brand, vehicle_capacity: body.vehicle_capacity },
      true,
    );
  }

  /**
   * The driver's card beyond the account: a fleet vehicle of the driver's company (one in service, unless it is
   * already his) and the licence. Only what is sent.
   */
  async function cardChanges(companyId: number, driverId: number | null, body: Pick<DriverUpdate, 'vehicle_id' | 'license_series' | 'license_number' | 'license_issued' | 'inn'>): Promise<UserUpdate> {
    const changes: UserUpdate = {};
    if (body.vehicle_id != null) {
      const vehicle = await db.kysely.selectFrom('vehicles').select(['company_id', 'is_active', 'plate']).where('id', '=', body.vehicle_id).executeTakeFirst();
      if (!vehicle || vehicle.company_id !== companyId) throw badRequest('Машина: не найдена в парке компании');
      const had = driverId === null ? undefined : await db.kysely.selectFrom('users').select('vehicle_id').where('id', '=', driverId).executeTakeFirst();
      if (!vehicle.is_active && had?.vehicle_id !== body.vehicle_id) throw badRequest(`Машина: ${vehicle.plate} выведена из работы — выберите другую`);
    }
    if (body.vehicle_id !== undefined) changes.vehicle_id = body.vehicle_id;
    Object.assign(changes, licenceChanges(body));
    if (body.license_issued !== undefined) changes.license_issued = body.license_issued;
    if (body.inn !== undefined) changes.inn = body.inn;
    return changes;
  }

  /**
   * The licence's columns from what was sent: a number alone leaves the series; the whole «77 12 345678» sets both
   * (a series sent beside it must be the same); a number cleared clears the series (a series alone names nothing).
   */
  function licenceChanges(body: Pick<DriverUpdate, 'license_series' | 'license_number'>): Pick<UserUpdate, 'license_series' | 'license_number'> {
    const changes: Pick<UserUpdate, 'license_series' | 'license_number'> = {};
    if (body.license_series !== undefined) changes.license_series = body.license_series;
    const parts = body.license_number;
    if (parts === undefined) return changes;
    if (parts === null) return { license_series: null, license_number: null };
    if (parts.series !== undefined) {
      if (body.license_series != null && body.license_series !== parts.series) {
        throw badRequest(`Серия удостоверения: ${body.license_series} не совпадает с серией в номере (${parts.series})`);
      }
      changes.license_series = parts.series;
    }
    changes.license_number = parts.number;
    return changes;
  }

  registerArea(app, ctx, driverCalls, {
    'GET /users/drivers/': async ({ user, query }) => {
      let select = db.kysely.selectFrom('users').select('id').where('role', '=', 'driver');
      if (user.role !== 'super-admin') select = select.where('company_id', '=', user.company_id ?? -1);
      else if (query.company_id) select = select.where('company_id', '=', query.company_id);
      if (query.include_inactive !== 'true' && query.include_inactive !== '1') select = select.where('is_active', '=', 1);
      const ids = (await select.orderBy('name').orderBy('id').execute()).map((r) => r.id);
      if (ids.length === 0) return [];
      const [wires, history, today] = await Promise.all([
        loadUserWires(db, ids),
        withHistory(ids),
        db.kysely
          .selectFrom('task_drivers as td')
          .innerJoin('tasks as t', 't.id', 'td.task_id')
          .select(['td.driver_id', db.kysely.fn.countAll<number>().as('n')])
          .where('td.driver_id', 'in', ids)
          .where('t.date', '=', localToday())
          .where('t.status', '!=', 'cancelled')
          .groupBy('td.driver_id')
          .execute(),
      ]);
      const todayCount = new Map(today.map((r) => [r.driver_id, Number(r.n)]));
      return ids.flatMap((id) => {
        const wire = wires.get(id);
        return wire ? [{ ...wire, today_task_count: todayCount.get(id) ?? 0, has_history: history.has(id) }] : [];
      });
    },

    'POST /users/drivers/': async ({ user, body }) => {
      const companyId = await targetCompany(user, body.company_id);
      const card = await cardChanges(companyId, null, body);
      const id = await createActiveAccount(db.kysely, {
        email: body.email,
        password: body.password,
        name: body.name,
        phone: body.phone,
        role: 'driver',
        company_id: companyId,
        vehicle: body.vehicle_number
          ? { vehicle_number: body.vehicle_number, vehicle_brand: body.vehicle_brand, vehicle_capacity: body.vehicle_capacity }
          : null,
      });
      if (Object.keys(card).length > 0) await db.kysely.updateTable('users').set(card).where('id', '=', id).execute();
      return loadUserWire(db, id);
    },

    'PUT /users/drivers/:id/': async ({ user, params: { id }, body }) => {
      const driver = await managedDriver(user, id);
      const changes: UserUpdate = {};
      if (body.name !== undefined) changes.name = body.name;
      if (body.phone !== undefined) changes.phone = body.phone;
      if (body.email !== undefined) {
        const other = await db.kysely
          .selectFrom('users')
          .select('id')
          .where('email', '=', body.email)
          .where('id', '!=', driver.id)
          .executeTakeFirst();
        if (other) throw conflict(EMAIL_TAKEN);
        changes.email = body.email;
      }
      if (body.password !== undefined) changes.password_hash = await hashPassword(body.password);
      if (body.is_active !== undefined) changes.is_active = body.is_active ? 1 : 0;
      Object.assign(changes, await cardChanges(driver.company_id ?? -1, driver.id, body));
      await db.kysely.transaction().execute(async (trx) => {
        if (Object.keys(changes).length > 0) await trx.updateTable('users').set(changes).where('id', '=', driver.id).execute();
        await updateCurrentVehicle(trx, driver.id, body);
      });
      // A new password or a deactivation must end the sessions that the old state allowed.
      if (body.password !== undefined || body.is_active === false) await ctx.refresh.revokeUser(driver.id);
      return loadUserWire(db, driver.id);
    },

    'DELETE /users/drivers/:id/': async ({ user, params: { id } }): Promise<DriverRemoval> => {
      const driver = await managedDriver(user, id);
      await ctx.refresh.revokeUser(driver.id);
      if ((await withHistory([driver.id])).has(driver.id)) {
        await db.kysely.updateTable('users').set({ is_active: 0 }).where('id', '=', driver.id).execute();
        return { outcome: 'deactivated', detail: HAS_HISTORY };
      }
      // Tokens, vehicles and push subscriptions go with the account (ON DELETE CASCADE).
      await db.kysely.deleteFrom('users').where('id', '=', driver.id).execute();
      return { outcome: 'deleted', detail: ERASED };
    },
  });
};
