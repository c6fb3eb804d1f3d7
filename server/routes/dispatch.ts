/** The handlers of the dispatcher's board (contract/calls/dispatch.ts; docs/dispatch.md). */
import type { RouteModule } from '../context.ts';
import { dispatchCalls } from '../../contract/calls/dispatch.ts';
import { registerArea } from './define.ts';
import { badRequest, notFound } from '../errors.ts';
import { staffCompany } from '../tasks/scope.ts';
import { assignOnBoard, loadBoard, moveOnBoard } from '../dispatch/board.ts';

export const dispatchRoutes: RouteModule = (app, ctx) => {
  const { db } = ctx;
  /** The super-admin's board is of the task's company; staff's of their own. */
  const companyOfTask = async (taskId: number): Promise<number> => {
    const task = await db.kysely.selectFrom('tasks').select('company_id').where('id', '=', taskId).executeTakeFirst();
    if (!task) throw notFound('Задача не найдена');
    return task.company_id;
  };

  registerArea(app, ctx, dispatchCalls, {
    'GET /dispatch/board': async ({ user, query }) => loadBoard(db, (await staffCompany(db, user, query.company_id)).id, query.date),
    'POST /dispatch/move': async ({ user, body }) => {
      const company = await staffCompany(db, user, user.role === 'super-admin' ? await companyOfTask(body.task_id) : null);
      return moveOnBoard(db, user, company.id, body);
    },
    'POST /dispatch/assign': async ({ user, body }) => {
      const driver = await db.kysely.selectFrom('users').select('company_id').where('id', '=', body.driver_id).where('role', '=', 'driver').executeTakeFirst();
      if (!driver?.company_id || (user.role !== 'super-admin' && driver.company_id !== user.company_id)) throw badRequest('driver_id: водитель не найден в компании');
      const company = await staffCompany(db, user, driver.company_id);
      return assignOnBoard(db, user, company.id, body);
    },
  });
};
