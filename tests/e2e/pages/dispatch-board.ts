/** /dispatch in a test: today's task made by the demo manager through the API, and the day's board as the server has it. */
import type { Board } from '../../../contract/calls/dispatch.ts';
import { call, login } from '../../fixtures/accounts.ts';
import { dayFromToday } from '../../fixtures/tasks.ts';
import { DEMO, DEMO_PASSWORD, type E2eApp } from '../harness/app.ts';

export async function todaysTask(app: E2eApp, cargo: string): Promise<{ id: number; board: () => Promise<Board> }> {
  const today = dayFromToday(0);
  const token = (await login(app.server, DEMO.manager, DEMO_PASSWORD)).access_token;
  const body = { date: today, cargo, loading_place: 'Карьер', unloading_place: 'Объект', planned_quantity: 30, rate: 500 };
  const created = await call<{ id: number }>(app.server, 'POST', '/api/tasks/', { token, body });
  if (created.status !== 201) throw new Error(`task «${cargo}» not created: ${created.status}`);
  return { id: created.body.id, board: async () => (await call<Board>(app.server, 'GET', `/api/dispatch/board?date=${today}`, { token })).body };
}
