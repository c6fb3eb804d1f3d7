/**
 * Accounts as a super-admin manages them (/users/manage, /managers/manage): every user with search and
 * filters, managers and admins created directly, and any user's fields, role, company, activity or password.
 * The last active super-admin can be neither deactivated nor demoted, and nobody deactivates themselves.
 * A deactivation or a new password ends the user's sessions at once; a new role takes effect on the user's
 * next call (their token for the old role is refused, and the refresh hands them one for the new role).
 */
import type { RouteModule } from '../context.ts';
import { rolesOfFilter, userAdminCalls } from '../../contract/calls/users.ts';
import type { Role } from '../../contract/roles.ts';
import type { UserUpdate } from '../db/schema.ts';
import { hashPassword } from '../auth/passwords.ts';
import { badRequest, conflict, notFound } from '../errors.ts';
import { EMAIL_TAKEN, createActiveAccount } from '../users/accounts.ts';
import { loadUserWire, loadUserWires } from '../users/wire.ts';
import { searchCondition } from '../tasks/search.ts';
import { registerArea } from './define.ts';

export const LAST_SUPER_ADMIN = 'Это последний активный суперадминистратор: его нельзя отключить или лишить роли';
export const NOT_YOURSELF = 'Свою учётную запись отключить нельзя';

export const userAdminRoutes: RouteModule = (app, ctx) => {
  const { db } = ctx;

  async function companyExists(id: number): Promise<boolean> {
    return (await db.kysely.selectFrom('companies').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  }

  registerArea(app, ctx, userAdminCalls, {
    'GET /users/': async ({ query: q }) => {
      let select = db.kysely.selectFrom('users');
      if (q.search) select = select.where(searchCondition(db, q.search, ['users.name', 'users.email', 'users.phone']));
      const roles = rolesOfFilter(q.role);
      if (roles.length > 0) select = select.where('users.role', 'in', roles);
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
    },

    'POST /users/staff/': async ({ body }) => {
      if (!(await companyExists(body.company_id))) throw badRequest('company_id: компания не найдена');
      const id = await createActiveAccount(db.kysely, { ...body, vehicle: null });
      return loadUserWire(db, id);
    },

    'PUT /users/:id/': async ({ user: actor, params: { id }, body }) => {
      const target = await db.kysely
        .selectFrom('users')
        .select(['id', 'role', 'company_id', 'is_active'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!target) throw notFound('Пользователь не найден');
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
    },
  });
};
