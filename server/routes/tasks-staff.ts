/**
 * Staff task calls (docs/product.md §7): the task list, the day's active tasks, create, delete, a task's
 * drivers, and a driver's task order; declared in contract/calls/tasks.ts (staffTaskCalls). Everything is scoped
 * to the caller's company (a super-admin: all).
 */
import type { RouteModule } from '../context.ts';
import { staffTaskCalls } from '../../contract/calls/tasks.ts';
import { registerArea } from './define.ts';
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

export const staffTaskRoutes: RouteModule = (app, ctx) => {
  const { db } = ctx;
  registerArea(app, ctx, staffTaskCalls, {
    'GET /tasks/completed/': ({ user, query }) => staffTaskList(db, user, query),
    'GET /tasks/active/': ({ user, query }) => activeTasks(db, user, query),
    'POST /tasks/': ({ user, body }) => createTask(db, user, body),
    'DELETE /tasks/:id/': async ({ user, params }) => {
      await deleteTask(db, user, params.id);
      return null;
    },
    'PUT /tasks/:id/drivers/:driverId/': ({ user, params, query }) => assignDriver(db, user, params.id, params.driverId, query),
    'PUT /tasks/:id/drivers/:driverId/move/': ({ user, params, body }) => moveDriver(db, user, params.id, params.driverId, body.to_driver_id),
    'DELETE /tasks/:id/drivers/:driverId/': async ({ user, params }) => {
      await unassignDriver(db, user, params.id, params.driverId);
      return null;
    },
    'GET /tasks/drivers/:id/tasks': async ({ user, params, query }) => {
      const driver = await manageableDriver(db, user, params.id);
      return driverTasks(db, driver.id, query.date);
    },
    'PUT /tasks/drivers/:id/tasks/order': async ({ user, params, body }) => {
      const driver = await manageableDriver(db, user, params.id);
      await setDriverOrder(db, driver.id, body.task_ids);
      return driverTasks(db, driver.id);
    },
  });
};
