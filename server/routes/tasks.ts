/**
 * The driver's task calls (SPEC.md section 7, Tasks): available, accept, assigned, completed, bulk,
 * quantities and status. Staff calls live in tasks-staff.ts. Every list answers Page<Task>.
 */
import { z } from 'zod';
import type { RouteModule } from '../context.ts';
import { ALL_ROLES, DRIVER_ONLY } from '../../contract/roles.ts';
import { DRIVER_STATUSES } from '../../contract/entities.ts';
import {
  availableQuerySchema,
  BULK_MAX_IDS,
  driverCompletedQuerySchema,
  quantityUpdateSchema,
} from '../../contract/driver.ts';
import { badRequest, idParam, parse } from '../errors.ts';
import { availableTasks, assignedTasks, bulkTasks, driverCompletedTasks, parseIdList } from '../tasks/queries.ts';
import { acceptTask, changeOwnStatus, updateQuantities } from '../tasks/driver-actions.ts';
import { updateTaskAsStaff } from '../tasks/staff-actions.ts';
import { isDriver } from '../tasks/scope.ts';
import { currentUser } from '../auth/guard.ts';

const driverStatusSchema = z.object({
  status: z.enum(DRIVER_STATUSES, { message: 'неизвестный статус' }),
});

export const taskRoutes: RouteModule = (app, ctx) => {
  const driver = { preHandler: ctx.guard(DRIVER_ONLY) };
  const anyone = { preHandler: ctx.guard(ALL_ROLES) };

  app.get('/tasks/available/', driver, async (request) =>
    availableTasks(ctx.db, currentUser(request), parse(availableQuerySchema, request.query)),
  );

  app.put('/tasks/:id/accept/', driver, async (request) => acceptTask(ctx.db, currentUser(request), idParam(request.params)));

  app.get('/tasks/assigned/', driver, async (request) => assignedTasks(ctx.db, currentUser(request)));

  app.get('/tasks/driver/completed', driver, async (request) =>
    driverCompletedTasks(ctx.db, currentUser(request), parse(driverCompletedQuerySchema, request.query)),
  );

  app.get('/tasks/bulk', anyone, async (request) => {
    const raw = (request.query as Record<string, unknown>).ids;
    const ids = parseIdList(raw);
    if (!ids || ids.length === 0) throw badRequest('ids: ожидается список положительных чисел через запятую');
    if (ids.length > BULK_MAX_IDS) throw badRequest(`ids: не больше ${BULK_MAX_IDS} за один запрос`);
    const items = await bulkTasks(ctx.db, currentUser(request), ids);
    return { items, next_offset: null, total: items.length };
  });

  app.put('/tasks/:id/drivers/:driverId/quantity/', anyone, async (request) =>
    updateQuantities(
      ctx.db,
      currentUser(request),
      idParam(request.params),
      idParam(request.params, 'driverId'),
      parse(quantityUpdateSchema, request.body),
    ),
  );

  app.put('/tasks/:id/', anyone, async (request) => {
    const user = currentUser(request);
    const taskId = idParam(request.params);
    if (isDriver(user)) return changeOwnStatus(ctx.db, user, taskId, parse(driverStatusSchema, request.body).status);
    return updateTaskAsStaff(ctx.db, user, taskId, request.body);
  });
};
