/**
 * /users/drivers: staff manage the drivers of their company (a super-admin, of any company). Drivers
 * made here are active at once; DELETE deactivates (their history stays) and ends their sessions.
 */
import { z } from 'zod';
import type { RouteModule } from '../context.ts';
import type { UserWire } from '../../contract/entities.ts';
import { STAFF } from '../../contract/roles.ts';
import { driverCreateSchema, driverUpdateSchema } from '../../contract/payloads.ts';
import type { UserUpdate } from '../db/schema.ts';
import { type AuthUser, currentUser, inScope } from '../auth/guard.ts';
import { hashPassword } from '../auth/passwords.ts';
import { badRequest, conflict, forbidden, idParam, notFound, parse } from '../errors.ts';
import { EMAIL_TAKEN, createAccount } from '../users/accounts.ts';
import { loadUserWire, loadUserWires } from '../users/wire.ts';

const listQuery = z.object({
  company_id: z.coerce.number().int().positive().optional(),
  include_inactive: z.enum(['true', 'false', '1', '0']).optional(),
});

export const driverRoutes: RouteModule = (app, ctx) => {
  const { db } = ctx;
  const staff = { preHandler: ctx.guard(STAFF) };

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

  app.get('/users/drivers/', staff, async (request): Promise<UserWire[]> => {
    const user = currentUser(request);
    const query = parse(listQuery, request.query);
    let select = db.kysely.selectFrom('users').select('id').where('role', '=', 'driver');
    if (user.role !== 'super-admin') select = select.where('company_id', '=', user.company_id ?? -1);
    else if (query.company_id) select = select.where('company_id', '=', query.company_id);
    if (query.include_inactive !== 'true' && query.include_inactive !== '1') select = select.where('is_active', '=', 1);
    const ids = (await select.orderBy('name').orderBy('id').execute()).map((r) => r.id);
    const wires = await loadUserWires(db, ids);
    return ids.flatMap((id) => wires.get(id) ?? []);
  });

  app.post('/users/drivers/', staff, async (request, reply) => {
    const user = currentUser(request);
    const body = parse(driverCreateSchema, request.body);
    const companyId = await targetCompany(user, body.company_id);
    const passwordHash = await hashPassword(body.password);
    const id = await db.kysely.transaction().execute((trx) =>
      createAccount(trx, {
        email: body.email,
        password_hash: passwordHash,
        name: body.name,
        phone: body.phone,
        role: 'driver',
        company_id: companyId,
        vehicle: body.vehicle_number
          ? { vehicle_number: body.vehicle_number, vehicle_brand: body.vehicle_brand, vehicle_capacity: body.vehicle_capacity }
          : null,
      }),
    );
    return reply.status(201).send(await loadUserWire(db, id));
  });

  app.put('/users/drivers/:id/', staff, async (request): Promise<UserWire> => {
    const driver = await managedDriver(currentUser(request), idParam(request.params));
    const body = parse(driverUpdateSchema, request.body);
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
    if (Object.keys(changes).length > 0) {
      await db.kysely.updateTable('users').set(changes).where('id', '=', driver.id).execute();
    }
    // A new password or a deactivation must end the sessions that the old state allowed.
    if (body.password !== undefined || body.is_active === false) await ctx.refresh.revokeUser(driver.id);
    return loadUserWire(db, driver.id);
  });

  app.delete('/users/drivers/:id/', staff, async (request, reply) => {
    const driver = await managedDriver(currentUser(request), idParam(request.params));
    await db.kysely.updateTable('users').set({ is_active: 0 }).where('id', '=', driver.id).execute();
    await ctx.refresh.revokeUser(driver.id);
    return reply.status(204).send();
  });
};
