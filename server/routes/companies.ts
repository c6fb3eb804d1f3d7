/**
 * /companies: the public list (the registration form picks from it), and management for admins.
 * An admin may create companies and rename their own; renaming others, deleting and moving users
 * between companies belong to the super-admin (an admin may attach users to their own company).
 */
import type { RouteModule } from '../context.ts';
import type { Company, UserWire } from '../../contract/entities.ts';
import { ADMINS, SUPER_ONLY } from '../../contract/roles.ts';
import { companySchema, companyUserSchema } from '../../contract/payloads.ts';
import { currentUser, inScope } from '../auth/guard.ts';
import { nowIso } from '../db/connect.ts';
import { conflict, forbidden, idParam, notFound, parse } from '../errors.ts';
import { loadUserWire } from '../users/wire.ts';

const NAME_TAKEN = 'Компания с таким названием уже есть';

export const companyRoutes: RouteModule = (app, ctx) => {
  const { db } = ctx;

  async function companyOrNotFound(id: number): Promise<Company> {
    const row = await db.kysely.selectFrom('companies').select(['id', 'name']).where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('Компания не найдена');
    return row;
  }

  async function nameIsTaken(name: string, exceptId = 0): Promise<boolean> {
    const row = await db.kysely
      .selectFrom('companies')
      .select('id')
      .where('name', '=', name)
      .where('id', '!=', exceptId)
      .executeTakeFirst();
    return row !== undefined;
  }

  app.get('/companies/', async (): Promise<Company[]> =>
    db.kysely.selectFrom('companies').select(['id', 'name']).orderBy('name').orderBy('id').execute(),
  );

  app.post('/companies/', { preHandler: ctx.guard(ADMINS) }, async (request, reply) => {
    const { name } = parse(companySchema, request.body);
    if (await nameIsTaken(name)) throw conflict(NAME_TAKEN);
    const created = await db.kysely
      .insertInto('companies')
      .values({ name, created_at: nowIso() })
      .returning(['id', 'name'])
      .executeTakeFirstOrThrow();
    return reply.status(201).send(created);
  });

  app.put('/companies/:id', { preHandler: ctx.guard(ADMINS) }, async (request): Promise<Company> => {
    const company = await companyOrNotFound(idParam(request.params));
    if (!inScope(currentUser(request), company.id)) throw forbidden('Можно изменять только свою компанию');
    const { name } = parse(companySchema, request.body);
    if (await nameIsTaken(name, company.id)) throw conflict(NAME_TAKEN);
    await db.kysely.updateTable('companies').set({ name }).where('id', '=', company.id).execute();
    return { id: company.id, name };
  });

  app.delete('/companies/:id', { preHandler: ctx.guard(SUPER_ONLY) }, async (request, reply) => {
    const company = await companyOrNotFound(idParam(request.params));
    // Deleting would cascade into tasks and reports, or orphan accounts: refuse while anything uses it.
    const users = await db.kysely.selectFrom('users').select('id').where('company_id', '=', company.id).executeTakeFirst();
    const tasks = await db.kysely.selectFrom('tasks').select('id').where('company_id', '=', company.id).executeTakeFirst();
    if (users || tasks) throw conflict('В компании есть пользователи или задачи; удалить её нельзя');
    await db.kysely.deleteFrom('registration_requests').where('company_id', '=', company.id).execute();
    await db.kysely.deleteFrom('companies').where('id', '=', company.id).execute();
    return reply.status(204).send();
  });

  app.post('/companies/:id/users/', { preHandler: ctx.guard(ADMINS) }, async (request): Promise<UserWire> => {
    const actor = currentUser(request);
    const company = await companyOrNotFound(idParam(request.params));
    if (!inScope(actor, company.id)) throw forbidden('Можно добавлять пользователей только в свою компанию');
    const { user_id } = parse(companyUserSchema, request.body);
    const user = await db.kysely
      .selectFrom('users')
      .select(['id', 'company_id', 'role'])
      .where('id', '=', user_id)
      .executeTakeFirst();
    // An admin may take in users without a company or already theirs, never pull one from another company.
    if (!user || (actor.role !== 'super-admin' && user.company_id !== null && user.company_id !== actor.company_id)) {
      throw notFound('Пользователь не найден');
    }
    if (user.role === 'super-admin') throw conflict('Суперадминистратор не привязывается к компании');
    await db.kysely.updateTable('users').set({ company_id: company.id }).where('id', '=', user.id).execute();
    return loadUserWire(db, user.id);
  });
};
