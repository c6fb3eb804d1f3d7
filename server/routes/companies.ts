/** The handlers of the /companies calls (contract/calls/companies.ts). */
import type { RouteModule } from '../context.ts';
import type { Company, CompanyCard } from '../../contract/entities.ts';
import { companyCalls } from '../../contract/calls/companies.ts';
import { inScope } from '../auth/guard.ts';
import { nowIso } from '../db/connect.ts';
import { conflict, forbidden, notFound } from '../errors.ts';
import { loadUserWire } from '../users/wire.ts';
import { registerArea } from './define.ts';
import { companyThresholds } from '../reports/score.ts';
import { assertStaffSeesCompany } from '../tasks/scope.ts';
import { companyTripSettings, saveTripSettings } from '../trips/settings.ts';

const NAME_TAKEN = 'Компания с таким названием уже есть';

export const companyRoutes: RouteModule = (app, ctx) => {
  const { db } = ctx;

  async function companyOrNotFound(id: number): Promise<Company> {
    const row = await db.kysely.selectFrom('companies').select(['id', 'name']).where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('Компания не найдена');
    return row;
  }

  async function companyCard(id: number): Promise<CompanyCard> {
    return db.kysely
      .selectFrom('companies')
      .select(['id', 'name', 'full_name', 'inn', 'kpp', 'ogrn', 'address', 'phone', 'edo_id', 'vat_rate'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
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

  registerArea(app, ctx, companyCalls, {
    'GET /companies/': () => db.kysely.selectFrom('companies').select(['id', 'name']).orderBy('name').orderBy('id').execute(),

    'POST /companies/': async ({ body: { name } }) => {
      if (await nameIsTaken(name)) throw conflict(NAME_TAKEN);
      return db.kysely.insertInto('companies').values({ name, created_at: nowIso() }).returning(['id', 'name']).executeTakeFirstOrThrow();
    },

    'GET /companies/:id': async ({ user, params }) => {
      const company = await companyOrNotFound(params.id);
      assertStaffSeesCompany(user, company.id, 'Компания не найдена');
      return companyCard(company.id);
    },

    'PUT /companies/:id': async ({ user, params, body }) => {
      const company = await companyOrNotFound(params.id);
      if (!inScope(user, company.id)) throw forbidden('Можно изменять только свою компанию');
      if (await nameIsTaken(body.name, company.id)) throw conflict(NAME_TAKEN);
      // The requisites sent change; those left out stay.
      const changes = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
      await db.kysely.updateTable('companies').set(changes).where('id', '=', company.id).execute();
      return companyCard(company.id);
    },

    'DELETE /companies/:id': async ({ params }) => {
      const company = await companyOrNotFound(params.id);
      // Deleting would cascade into tasks and reports, or orphan accounts: refuse while anything uses it.
      const users = await db.kysely.selectFrom('users').select('id').where('company_id', '=', company.id).executeTakeFirst();
      const tasks = await db.kysely.selectFrom('tasks').select('id').where('company_id', '=', company.id).executeTakeFirst();
      if (users || tasks) throw conflict('В компании есть пользователи или задачи; удалить её нельзя');
      await db.kysely.deleteFrom('registration_requests').where('company_id', '=', company.id).execute();
      await db.kysely.deleteFrom('companies').where('id', '=', company.id).execute();
      return null;
    },

    'POST /companies/:id/users/': async ({ user: actor, params, body: { user_id } }) => {
      const company = await companyOrNotFound(params.id);
      if (!inScope(actor, company.id)) throw forbidden('Можно добавлять пользователей только в свою компанию');
      const user = await db.kysely.selectFrom('users').select(['id', 'company_id', 'role']).where('id', '=', user_id).executeTakeFirst();
      // An admin may take in users without a company or already theirs, never pull one from another company.
      if (!user || (actor.role !== 'super-admin' && user.company_id !== null && user.company_id !== actor.company_id)) {
        throw notFound('Пользователь не найден');
      }
      if (user.role === 'super-admin') throw conflict('Суперадминистратор не привязывается к компании');
      await db.kysely.updateTable('users').set({ company_id: company.id }).where('id', '=', user.id).execute();
      return loadUserWire(db, user.id);
    },

    'GET /companies/:id/checks': async ({ user, params }) => {
      const company = await companyOrNotFound(params.id);
      assertStaffSeesCompany(user, company.id, 'Компания не найдена');
      return companyThresholds(db.kysely, company.id);
    },

    'PUT /companies/:id/checks': async ({ user, params, body }) => {
      const company = await companyOrNotFound(params.id);
      if (!inScope(user, company.id)) throw forbidden('Можно изменять только свою компанию');
      // Reports already stored keep their findings; the new thresholds apply from the next report or edit.
      await db.kysely.updateTable('companies').set({ check_thresholds: JSON.stringify(body) }).where('id', '=', company.id).execute();
      return companyThresholds(db.kysely, company.id);
    },

    'GET /companies/:id/trip-settings': async ({ user, params }) => {
      const company = await companyOrNotFound(params.id);
      // A driver reads his own company's (the phone's acceptance and automatic stamps follow them).
      if (user.role !== 'driver' || user.company_id !== company.id) assertStaffSeesCompany(user, company.id, 'Компания не найдена');
      return companyTripSettings(db.kysely, company.id);
    },

    'PUT /companies/:id/trip-settings': async ({ user, params, body }) => {
      const company = await companyOrNotFound(params.id);
      if (!inScope(user, company.id)) throw forbidden('Можно изменять только свою компанию');
      // Trips already stored keep their findings; the new settings apply from the next step.
      return saveTripSettings(db.kysely, company.id, body);
    },
  });
};
