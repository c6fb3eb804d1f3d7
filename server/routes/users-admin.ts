/**
 * Accounts as a super-admin manages them (/users/manage, /managers/manage): every user with search and
 * filters, managers and admins created directly, and any user's fields, role, company, activity or password.
 * The last active super-admin can be neither deactivated nor demoted, and nobody deactivates themselves.
 * A deactivation or a new password ends the user's sessions at once; a new role takes effect on the user's
 * next call (their token for the old role is refused, and the refresh hands them one for the new role).
 */
import { z } from 'zod';
import type { RouteModule } from '../context.ts';
import type { UserListPage, UserWire } from '../../contract/entities.ts';
import { ROLES, SUPER_ONLY, type Role } from '../../contract/roles.ts';
import { staffCreateSchema, userAdminUpdateSchema } from '../../contract/payloads.ts';
import type { UserUpdate } from '../db/schema.ts';
import { currentUser } from '../auth/guard.ts';
import { hashPassword } from '../auth/passwords.ts';
import { badRequest, conflict, idParam, notFound, parse } from '../errors.ts';
import { EMAIL_TAKEN, createActiveAccount } from '../users/accounts.ts';
import { loadUserWire, loadUserWires } from '../users/wire.ts';
import { searchCondition } from '../tasks/search.ts';

const PAGE_MAX = 200;

const listQuery = z.object({
  search: z.string().trim().max(200).optional(),
  // One role or several, comma-separated: /managers/manage lists managers and admins together.
  role: z
    .string()
    .transform((text) => text.split(',').map((r) => r.trim()).filter(Boolean))
    .pipe(z.array(z.enum(ROLES, { message: 'неизвестная роль' })))
    .optional(),
  company_id: z.coerce.number({ message: 'ожидается номер компании' }).int().positive().optional(),
  active: z.enum(['true', 'false', 'all']).default('all'),
  ordering: z.enum(['name', '-name', 'created_at', '-created_at', 'email', '-email']).default('name'),
  limit: z.coerce.number({ message: 'ожидается число' }).int().min(1).max(PAGE_MAX).default(50),
  offset: z.coerce.number({ message: 'ожидается число' }).int().min(0).default(0),
});

export const LAST_SUPER_ADMIN = 'Это последний активный суперадминистратор: его нельзя отключить или лишить роли';
export const NOT_YOURSELF = 'Свою учётную запись отключить нельзя';

export const userAdminRoutes: RouteModule = (app, ctx) => {
  const { db } = ctx;
  const superOnly = { preHandler: ctx.guard(SUPER_ONLY) };

  async function companyExists(id: number): Promise<boolean> {
    return (await db.kysely.selectFrom('companies').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  }

  app.get('/users/', superOnly, async (request): Promise<UserListPage> => {
    const q = parse(listQuery, request.query);
    let select = db.kysely.selectFrom('users');
    if (q.search) select = select.where(searchCondition(db.dialect, q.search, ['users.name', 'users.email', 'users.phone']));
    if (q.role && q.role.length > 0) select = select.where('users.role', 'in', q.role);
    if (q.company_id) select = select.where('users.company_id', '=', q.company_id);
    if (q.active !== 'all') select = select.where('users.is_active', '=', q.active === 'true' ? 1 : 0);
    const { total } = await select.select(db.kysely.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
    const desc = q.ordering.startsWith('-');
    const column = q.ordering.replace('-', '') as 'name' | 'created_at' | 'email';
    const rows = await select
      .select(['users.id', 'users.created_at'])
      .orderBy(`users.${column}`, desc ? 'desc' : 'asc')
      .orderBy('users.id')
      .limit(q.limit)
      .offset(q.offset)
      .execute();
    const wires = await loadUserWires(db, rows.map((r) => r.id));
    const items = rows.flatMap((r) => {
      const wire = wires.get(r.id);
      return wire ? [{ ...wire, created_at: r.created_at }] : [];
    });
    const end = q.offset + rows.length;
    return { items, total: Number(total), next_offset: end < Number(total) ? end : null };
  });

  app.post('/users/staff/', superOnly, async (request, reply) => {
    const body = parse(staffCreateSchema, request.body);
    if (!(await companyExists(body.company_id))) throw badRequest('company_id: компания не найдена');
    const id = await createActiveAccount(db.kysely, { ...body, vehicle: null });
    return reply.status(201).send(await loadUserWire(db, id));
  });

  app.put('/users/:id/', superOnly, async (request): Promise<UserWire> => {
    const actor = currentUser(request);
    const id = idParam(request.params);
    const target = await db.kysely
      .selectFrom('users')
      .select(['id', 'role', 'company_id', 'is_active'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!target) throw notFound('Пользователь не найден');
    const body = parse(userAdminUpdateSchema, request.body);
    const role: Role = body.role ?? (target.role as Role);
    const companyId = body.company_id !== undefined ? body.company_id : target.company_id;

    if (body.is_active === false && target.id === actor.id) throw conflict(NOT_YOURSELF);
    const losesSuperAdmin = target.role === 'super-admin' && target.is_active === 1 && (role !== 'super-admin' || body.is_active === false);
    if (losesSuperAdmin) {
      const others = await db.kysely
        .selectFrom('users')
        .select('id')
        .where('role', '=', 'super-admin')
        .where('is_active', '=', 1)
        .where('id', '!=', target.id)
        .executeTakeFirst();
      if (!others) throw conflict(LAST_SUPER_ADMIN);
    }
    // Everyone but a super-admin works for a company; a super-admin belongs to none.
    if (role !== 'super-admin' && companyId === null) throw badRequest('company_id: укажите компанию для этой роли');
    if (companyId !== null && body.company_id !== undefined && !(await companyExists(companyId))) {
      throw badRequest('company_id: компания не найдена');
    }

    const changes: UserUpdate = {};
    if (body.name !== undefined) changes.name = body.name;
    if (body.phone !== undefined) changes.phone = body.phone;
    if (body.email !== undefined) {
      const other = await db.kysely.selectFrom('users').select('id').where('email', '=', body.email).where('id', '!=', id).executeTakeFirst();
      if (other) throw conflict(EMAIL_TAKEN);
      changes.email = body.email;
    }
    if (body.password !== undefined) changes.password_hash = await hashPassword(body.password);
    if (body.is_active !== undefined) changes.is_active = body.is_active ? 1 : 0;
    if (body.role !== undefined) changes.role = role;
    if (body.role !== undefined || body.company_id !== undefined) changes.company_id = role === 'super-admin' ? null : companyId;
    if (Object.keys(changes).length > 0) await db.kysely.updateTable('users').set(changes).where('id', '=', id).execute();
    if (body.password !== undefined || body.is_active === false) await ctx.refresh.revokeUser(id);
    return loadUserWire(db, id);
  });
};
