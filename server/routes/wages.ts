/** Wages (SPEC.md section 7): a driver's earnings, and a company's per driver. */
import type { RouteModule } from '../context.ts';
import { ALL_ROLES, STAFF } from '../../contract/roles.ts';
import { wagesQuerySchema } from '../../contract/driver.ts';
import { badRequest, forbidden, idParam, notFound, parse } from '../errors.ts';
import { companyWages, driverWages } from '../wages/compute.ts';
import { assertStaffSeesCompany, isDriver } from '../tasks/scope.ts';
import { currentUser } from '../auth/guard.ts';

function period(query: unknown) {
  const p = parse(wagesQuerySchema, query);
  if (p.start_date && p.end_date && p.start_date > p.end_date) throw badRequest('end_date: раньше, чем start_date');
  return p;
}

export const wageRoutes: RouteModule = (app, ctx) => {
  app.get('/wages/driver/:id', { preHandler: ctx.guard(ALL_ROLES) }, async (request) => {
    const user = currentUser(request);
    const driverId = idParam(request.params);
    const range = period(request.query);
    if (isDriver(user)) {
      if (driverId !== user.id) throw forbidden('Можно смотреть только свой заработок');
    } else {
      const driver = await ctx.db.kysely
        .selectFrom('users')
        .select(['id', 'company_id'])
        .where('id', '=', driverId)
        .where('role', '=', 'driver')
        .executeTakeFirst();
      if (!driver) throw notFound('Водитель не найден');
      assertStaffSeesCompany(user, driver.company_id ?? -1, 'Водитель не найден');
    }
    return driverWages(ctx.db, driverId, range);
  });

  app.get('/wages/company/:id', { preHandler: ctx.guard(STAFF) }, async (request) => {
    const companyId = idParam(request.params);
    const range = period(request.query);
    const company = await ctx.db.kysely.selectFrom('companies').select('id').where('id', '=', companyId).executeTakeFirst();
    if (!company) throw notFound('Компания не найдена');
    assertStaffSeesCompany(currentUser(request), companyId, 'Компания не найдена');
    return companyWages(ctx.db, companyId, range);
  });
};
