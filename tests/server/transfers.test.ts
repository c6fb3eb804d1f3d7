/**
 * Carrier transfers: creating with its checks, the sender's edits and withdrawal while pending, the receiver's
 * accept (its own carrier task, its own drivers) and decline (with a reason), both sides' view of the carrier
 * task, and a third company that sees none of it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { call, makeCompany, makeUser, makeWorld, login, type World } from '../fixtures/accounts.ts';
import { createTask } from '../fixtures/tasks.ts';
import type { CarrierTaskView, Transfer } from '../../contract/transfers.ts';

describe.each(backends)('carrier transfers ($name)', ({ databaseUrl }) => {
  let s: TestServer;
  let w: World;
  let outsider: string;
  serveSuite(databaseUrl, async (server) => {
    s = server;
    w = await makeWorld(s);
  });
  beforeAll(async () => {
    const third = await makeCompany(s);
    outsider = (await login(s, (await makeUser(s, 'manager', third)).email)).access_token;
  });

  const post = (body: unknown, token = w.tokens.manager) => call<Transfer>(s, 'POST', '/api/transfers/', { token, body });

  it('checks what is handed: own task, another company, a quantity that is left', async () => {
    const task = await createTask(s, w.companyA, { planned_quantity: 100 });
    expect((await post({ task_id: task, to_company_id: w.companyB }, w.tokens.managerB)).status).toBe(404);
    const self = await post({ task_id: task, to_company_id: w.companyA });
    expect([self.status, (self.body as unknown as { detail: string }).detail]).toEqual([400, 'to_company_id: задачу нельзя передать своей же компании']);
    expect((await post({ task_id: task, to_company_id: 999999 })).status).toBe(400);
    const tooMuch = await post({ task_id: task, to_company_id: w.companyB, quantity: 150 });
    expect([tooMuch.status, (tooMuch.body as unknown as { detail: string }).detail]).toEqual([400, 'quantity: больше, чем осталось передать (100 т)']);
    expect((await post({ task_id: task, to_company_id: w.companyB, quantity: 0 })).status).toBe(400);
    expect((await post({ task_id: task, to_company_id: w.companyB, quantity: '30' })).status).toBe(400);

    const part = await post({ task_id: task, to_company_id: w.companyB, quantity: 60, comment: 'Наши машины заняты' });
    expect(part.status).toBe(201);
    expect(part.body).toMatchObject({ status: 'pending', direction: 'outgoing', quantity: 60, from_company: { id: w.companyA }, to_company: { id: w.companyB } });
    const again = await post({ task_id: task, to_company_id: w.companyB, quantity: 10 });
    expect(again.status).toBe(409);
    // Without a quantity the rest goes: 100 − 60 = 40.
    const third = await makeCompany(s);
    const rest = await post({ task_id: task, to_company_id: third });
    expect(rest.body.quantity).toBe(40);
    expect((await post({ task_id: task, to_company_id: await makeCompany(s) })).status).toBe(409);
    const done = await createTask(s, w.companyA, { status: 'completed' });
    expect((await post({ task_id: done, to_company_id: w.companyB })).status).toBe(409);
  });

  it('the sender edits or withdraws only while pending; the receiver may not', async () => {
    const task = await createTask(s, w.companyA, { planned_quantity: 80 });
    const t = (await post({ task_id: task, to_company_id: w.companyB, quantity: 30 })).body;
    const edit = (body: unknown, token = w.tokens.manager) => call<Transfer>(s, 'PUT', `/api/transfers/${t.id}`, { token, body });
    expect((await edit({ quantity: 50 })).body).toMatchObject({ quantity: 50 });
    expect((await edit({ quantity: 90 })).status).toBe(400);
    expect((await edit({})).status).toBe(400);
    expect((await edit({ quantity: 40 }, w.tokens.managerB)).status).toBe(403);
    expect((await edit({ quantity: 40 }, outsider)).status).toBe(404);
    expect((await call(s, 'DELETE', `/api/transfers/${t.id}`, { token: w.tokens.managerB })).status).toBe(403);
    expect((await call(s, 'POST', `/api/transfers/${t.id}/decline`, { token: w.tokens.managerB, body: { reason: '  ' } })).status).toBe(400);
    const declined = await call<Transfer>(s, 'POST', `/api/transfers/${t.id}/decline`, { token: w.tokens.managerB, body: { reason: 'Нет свободных машин' } });
    expect(declined.body).toMatchObject({ status: 'declined', decline_reason: 'Нет свободных машин', direction: 'incoming' });
    const late = await edit({ quantity: 10 });
    expect([late.status, (late.body as unknown as { detail: string }).detail]).toEqual([409, 'Передача уже отклонена: изменить её нельзя']);
    expect((await call(s, 'DELETE', `/api/transfers/${t.id}`, { token: w.tokens.manager })).status).toBe(409);
    expect((await call(s, 'POST', `/api/transfers/${t.id}/accept`, { token: w.tokens.managerB })).status).toBe(409);

    const other = (await post({ task_id: task, to_company_id: w.companyB, quantity: 10 })).body;
    expect((await call(s, 'DELETE', `/api/transfers/${other.id}`, { token: w.tokens.manager })).status).toBe(204);
    expect((await call(s, 'GET', `/api/transfers/carrier-task/${other.id}`, { token: w.tokens.manager })).status).toBe(404);
  });

  it('accepting gives the receiver its own task for its own drivers; the sender follows it read-only', async () => {
    const task = await createTask(s, w.companyA, { planned_quantity: 70, cargo: 'Песок карьерный' });
    const t = (await post({ task_id: task, to_company_id: w.companyB, quantity: 50 })).body;
    expect((await call(s, 'POST', `/api/transfers/${t.id}/accept`, { token: w.tokens.manager })).status).toBe(403);
    expect((await call(s, 'POST', `/api/transfers/${t.id}/accept`, { token: outsider })).status).toBe(404);
    const accepted = await call<Transfer>(s, 'POST', `/api/transfers/${t.id}/accept`, { token: w.tokens.managerB });
    expect(accepted.status).toBe(200);
    expect(accepted.body.status).toBe('accepted');
    const carrier = accepted.body.carrier_task_id as number;
    const row = await s.db.kysely.selectFrom('tasks').selectAll().where('id', '=', carrier).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ company_id: w.companyB, planned_quantity: 50, cargo: 'Песок карьерный', status: 'open' });

    // B puts its own driver on it (the usual task calls); A may not touch B's task.
    expect((await call(s, 'PUT', `/api/tasks/${carrier}/drivers/${w.users.driverB.id}/?quantity=20`, { token: w.tokens.managerB })).status).toBe(200);
    expect((await call(s, 'PUT', `/api/tasks/${carrier}/drivers/${w.users.driver.id}/`, { token: w.tokens.manager })).status).toBe(404);
    // B's driver carries 20 т in one trip, the last: a report, and the part finished.
    const assoc = await s.db.kysely.selectFrom('task_drivers').select('id').where('task_id', '=', carrier).executeTakeFirstOrThrow();
    const at = new Date().toISOString();
    await s.db.kysely
      .insertInto('reports')
      .values({ association_id: assoc.id, driver_id: w.users.driverB.id, quantity: 20, total_loading_quantity: null, total_unloading_quantity: null, loading_is_buyer: 0, unloading_is_buyer: 0, idempotency_key: null, completed_at: at, created_at: at, updated_at: at, final: 1 })
      .execute();
    await s.db.kysely.updateTable('task_drivers').set({ status: 'completed', quantity: 20, finished_at: at }).where('task_id', '=', carrier).execute();

    for (const token of [w.tokens.manager, w.tokens.managerB, w.tokens.super]) {
      const view = await call<CarrierTaskView>(s, 'GET', `/api/transfers/carrier-task/${t.id}`, { token });
      expect(view.status).toBe(200);
      expect(view.body.task).toMatchObject({ id: carrier, company_id: w.companyB, drivers: [{ driver_id: w.users.driverB.id, status: 'completed', quantity: 20 }] });
      expect(view.body.transfer.progress).toMatchObject({ completed_quantity: 20, planned_quantity: 50, drivers: 1, drivers_completed: 1 });
    }
    expect((await call(s, 'GET', `/api/transfers/carrier-task/${t.id}`, { token: outsider })).status).toBe(404);
    expect((await call(s, 'GET', `/api/transfers/carrier-task/${t.id}`, { token: w.tokens.driverB })).status).toBe(403);
  });

  it('lists incoming and outgoing for the company, filters by status; a third company sees nothing', async () => {
    const task = await createTask(s, w.companyA, { planned_quantity: 10 });
    const t = (await post({ task_id: task, to_company_id: w.companyB, quantity: 5 })).body;
    const ids = (list: Transfer[]) => list.map((x) => x.id);
    const incoming = await call<Transfer[]>(s, 'GET', `/api/transfers/?to_company_id=${w.companyB}`, { token: w.tokens.managerB });
    expect(ids(incoming.body)).toContain(t.id);
    expect(incoming.body.every((x) => x.to_company.id === w.companyB)).toBe(true);
    expect((await call(s, 'GET', `/api/transfers/?to_company_id=${w.companyB}`, { token: w.tokens.manager })).status).toBe(404);
    const outgoing = await call<Transfer[]>(s, 'GET', '/api/transfers/?direction=outgoing&status=pending', { token: w.tokens.manager });
    expect(ids(outgoing.body)).toContain(t.id);
    expect(outgoing.body.every((x) => x.direction === 'outgoing' && x.status === 'pending')).toBe(true);
    expect((await call<Transfer[]>(s, 'GET', '/api/transfers/?status=accepted', { token: w.tokens.manager })).body.every((x) => x.status === 'accepted')).toBe(true);
    expect((await call<Transfer[]>(s, 'GET', '/api/transfers/', { token: outsider })).body).toEqual([]);
    expect((await call(s, 'GET', '/api/transfers/?status=lost', { token: w.tokens.manager })).status).toBe(400);
    expect(ids((await call<Transfer[]>(s, 'GET', '/api/transfers/', { token: w.tokens.super })).body)).toContain(t.id);
  });
});
