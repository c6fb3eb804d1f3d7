/**
 * Staff task calls (SPEC.md section 7, Tasks): the completed list, create, delete, a task's drivers,
 * and a driver's task order. Everything is scoped to the caller's company (a super-admin: all).
 */
import { z } from 'zod';
import { formQuantity } from '../../contract/fields.ts';
import type { RouteModule } from '../context.ts';
import { STAFF } from '../../contract/roles.ts';
import { DRIVER_STATUSES } from '../../contract/entities.ts';
import { completedQuerySchema, isoDate, taskCreateSchema, taskOrderSchema } from '../../contract/driver.ts';
import { idParam, parse } from '../errors.ts';
import { activeTasks, staffTaskList } from '../tasks/queries.ts';
import {
  assignDriver,
  createTask,
  deleteTask,
  driverTasks,
  manageableDriver,
  moveDriver,
  setDriverOrder,
  unassignDriver,
} from '../tasks/assignments.ts';
import { currentUser } from '../auth/guard.ts';

/** A query-string number: a strict decimal as in a form (contract/fields.ts); '' or 'null' clears the field. */
const queryNumber = z.preprocess((v) => (v === 'null' ? '' : v), formQuantity());
const assignQuerySchema = z.object({
  quantity: queryNumber.optional(),
  status_param: z.enum(DRIVER_STATUSES, { message: 'неизвестный статус' }).optional(),
  loading_quantity: queryNumber.optional(),
  transport_rate: queryNumber.optional(),
  unloading_quantity: queryNumber.optional(),
  planned_quantity: queryNumber.optional(),
});
const dateQuerySchema = z.object({ date: isoDate.optional() });
const activeQuerySchema = z.object({
  date: isoDate.optional(),
  company_id: z.coerce.number({ message: 'ожидается номер компании' }).int().positive().optional(),
});
const moveSchema = z.object({ to_driver_id: z.number({ message: 'ожидается номер водителя' }).int().positive() });

export const staffTaskRoutes: RouteModule = (app, ctx) => {
  const staff = { preHandler: ctx.guard(STAFF) };

  app.get('/tasks/completed/', staff, async (request) =>
    staffTaskList(ctx.db, currentUser(request), parse(completedQuerySchema, request.query)),
  );

  app.get('/tasks/active/', staff, async (request) => activeTasks(ctx.db, currentUser(request), parse(activeQuerySchema, request.query)));

  app.post('/tasks/', staff, async (request, reply) =>
    reply.status(201).send(await createTask(ctx.db, currentUser(request), parse(taskCreateSchema, request.body))),
  );

  app.delete('/tasks/:id/', staff, async (request, reply) => {
    await deleteTask(ctx.db, currentUser(request), idParam(request.params));
    return reply.status(204).send();
  });

  app.put('/tasks/:id/drivers/:driverId/', staff, async (request) =>
    assignDriver(
      ctx.db,
      currentUser(request),
      idParam(request.params),
      idParam(request.params, 'driverId'),
      parse(assignQuerySchema, request.query),
    ),
  );

  app.put('/tasks/:id/drivers/:driverId/move/', staff, async (request) =>
    moveDriver(
      ctx.db,
      currentUser(request),
      idParam(request.params),
      idParam(request.params, 'driverId'),
      parse(moveSchema, request.body).to_driver_id,
    ),
  );

  app.delete('/tasks/:id/drivers/:driverId/', staff, async (request, reply) => {
    await unassignDriver(ctx.db, currentUser(request), idParam(request.params), idParam(request.params, 'driverId'));
    return reply.status(204).send();
  });

  app.get('/tasks/drivers/:id/tasks', staff, async (request) => {
    const driver = await manageableDriver(ctx.db, currentUser(request), idParam(request.params));
    return driverTasks(ctx.db, driver.id, parse(dateQuerySchema, request.query).date);
  });

  app.put('/tasks/drivers/:id/tasks/order', staff, async (request) => {
    const driver = await manageableDriver(ctx.db, currentUser(request), idParam(request.params));
    await setDriverOrder(ctx.db, driver.id, parse(taskOrderSchema, request.body).task_ids);
    return driverTasks(ctx.db, driver.id);
  });
};
