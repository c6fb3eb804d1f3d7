/**
 * The driver's task calls (docs/product.md §7): available, accept, assigned, completed, bulk,
 * quantities and status; declared in contract/calls/tasks.ts (driverTaskCalls). Staff calls live in
 * tasks-staff.ts. Every list answers Page<Task>.
 */
import type { RouteModule } from '../context.ts';
import { driverTaskCalls } from '../../contract/calls/tasks.ts';
import { driverStatusSchema } from '../../contract/driver.ts';
import { parse } from '../errors.ts';
import { registerArea } from './define.ts';
import { availableTasks, assignedTasks, bulkTasks, driverCompletedTasks } from '../tasks/queries.ts';
import { acceptTask, changeOwnStatus, updateQuantities } from '../tasks/driver-actions.ts';
import { updateTaskAsStaff } from '../tasks/staff-actions.ts';
import { isDriver } from '../tasks/scope.ts';

export const taskRoutes: RouteModule = (app, ctx) => {
  const { db } = ctx;
  registerArea(app, ctx, driverTaskCalls, {
    'GET /tasks/available/': ({ user, query }) => availableTasks(db, user, query),
    'PUT /tasks/:id/accept/': ({ user, params }) => acceptTask(db, user, params.id),
    'GET /tasks/assigned/': ({ user }) => assignedTasks(db, user),
    'GET /tasks/driver/completed': ({ user, query }) => driverCompletedTasks(db, user, query),
    'GET /tasks/bulk': async ({ user, query }) => {
      const items = await bulkTasks(db, user, query.ids);
      return { items, next_offset: null, total: items.length };
    },
    'PUT /tasks/:id/drivers/:driverId/quantity/': ({ user, params, body }) => updateQuantities(db, user, params.id, params.driverId, body),
    // The body's schema is the caller's role's: a driver's status, or staff's change.
    'PUT /tasks/:id/': ({ user, params, body }) =>
      isDriver(user) ? changeOwnStatus(db, user, params.id, parse(driverStatusSchema, body).status) : updateTaskAsStaff(db, user, params.id, body),
  });
};
