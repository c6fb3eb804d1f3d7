import { beforeEach, describe, expect, it } from 'vitest';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { makePeople, type People, type SignedInUser } from '../fixtures/accounts.ts';
import { addDriver, createTask, dayFromToday } from '../fixtures/tasks.ts';
import { nowIso } from '../../server/db/connect.ts';
import type { DriverAssociation, Page, Task } from '../../contract/entities.ts';

describe.each(backends)('staff task calls ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let p: People;

  serveSuite(databaseUrl, (s) => {
    server = s;
  });
  beforeEach(async () => {
    p = await makePeople(server);
  });

  const call = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, user?: SignedInUser, payload?: object) =>
    server.app.inject({ method, url: `/api${url}`, headers: user?.auth ?? {}, ...(payload ? { payload } : {}) });
  const ids = (page: Page<Task>) => page.items.map((t) => t.id);
  const addReport = async (associationId: number, driverId: number) =>
    server.db.kysely
      .insertInto('reports')
      .values({
        association_id: associationId,
        driver_id: driverId,
        loading_is_buyer: 0,
        unloading_is_buyer: 0,
        created_at: nowIso(),
        updated_at: nowIso(),
      })
      .execute();

  it('lists completed tasks of the company, newest first, with search, dates, status and paging', async () => {
    const old = await createTask(server, p.company, { status: 'completed', date: '2026-10-01', cargo: 'Песок карьерный' });
    const recent = await createTask(server, p.company, { status: 'completed', date: '2026-11-01', cargo: 'Щебень гранитный' });
    const open = await createTask(server, p.company, { status: 'open', date: '2026-11-02' });
    const foreign = await createTask(server, p.otherCompany, { status: 'completed', date: '2026-11-03' });
    const list = async (query = '', user = p.manager) => (await call('GET', `/tasks/completed/${query}`, user)).json() as Page<Task>;
    expect(ids(await list())).toEqual([recent, old]);
    expect(ids(await list('?ordering=date'))).toEqual([old, recent]);
    expect(ids(await list(`?search=${encodeURIComponent('щебень')}`))).toEqual([recent]);
    // A driver's name and a task's number find it too.
    await addDriver(server, old, p.driver.id, { status: 'completed' });
    expect(ids(await list(`?search=${encodeURIComponent('петров')}`))).toEqual([old]);
    expect(ids(await list(`?search=${encodeURIComponent(`№${recent}`)}`))).toEqual([recent]);
    expect(ids(await list(`?search=${old}`))).toEqual([old]);
    expect(ids(await list('?date_from=2026-10-15&date_to=2026-11-30'))).toEqual([recent]);
    expect(ids(await list('?status=all'))).toEqual([open, recent, old]);
    expect(await list('?limit=1')).toMatchObject({ total: 2, next_offset: 1 });
    expect(ids(await list('', p.otherManager))).toEqual([foreign]);
    expect(ids(await list('', p.superAdmin))).toEqual(expect.arrayContaining([foreign, recent, old]));
    // A search found through several parts counts each task once, under the list's filters, in its order, paged.
    const both = await createTask(server, p.company, { status: 'completed', date: '2026-10-20', cargo: 'Петровский щебень' });
    await addDriver(server, both, p.driver.id, { status: 'completed' });
    await createTask(server, p.otherCompany, { status: 'completed', date: '2026-10-21', cargo: 'Петровский щебень' });
    expect(await list(`?search=${encodeURIComponent('петров')}`)).toMatchObject({ total: 2 });
    expect(ids(await list(`?search=${encodeURIComponent('петров')}`))).toEqual([both, old]);
    expect(ids(await list(`?search=${encodeURIComponent('петров')}&ordering=-cargo`))).toEqual([both, old]);
    expect(ids(await list(`?search=${encodeURIComponent('петров')}&ordering=cargo`))).toEqual([old, both]);
    expect(await list(`?search=${encodeURIComponent('петров')}&limit=1&offset=1`)).toMatchObject({ total: 2, items: [{ id: old }] });
    expect(ids(await list(`?search=${encodeURIComponent('петров')}&date_from=2026-10-15`))).toEqual([both]);
    expect(ids(await list(`?search=${encodeURIComponent('щебень')}&status=all`))).toEqual([open, recent, both]);
    expect((await call('GET', '/tasks/completed/?ordering=sideways', p.manager)).statusCode).toBe(400);
    expect((await call('GET', '/tasks/completed/?limit=500', p.manager)).statusCode).toBe(400);
    expect((await call('GET', '/tasks/completed/', p.driver)).statusCode).toBe(403);
    expect((await call('GET', '/tasks/completed/')).statusCode).toBe(401);
  });

  it('a super-admin filters by company; other staff cannot widen their scope with it', async () => {
    const mine = await createTask(server, p.company, { status: 'completed', date: '2026-11-01' });
    const foreign = await createTask(server, p.otherCompany, { status: 'completed', date: '2026-11-02' });
    const list = async (query: string, user: SignedInUser) => (await call('GET', `/tasks/completed/${query}`, user)).json() as Page<Task>;
    expect(ids(await list(`?company_id=${p.otherCompany}`, p.superAdmin))).toEqual([foreign]);
    expect(ids(await list(`?company_id=${p.company}`, p.superAdmin))).toEqual([mine]);
    expect(ids(await list(`?company_id=${p.otherCompany}`, p.manager))).toEqual([]);
    expect(ids(await list(`?company_id=${p.company}`, p.manager))).toEqual([mine]);
    const bad = await call('GET', '/tasks/completed/?company_id=abc', p.superAdmin);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toMatch(/company_id/);
  });

  it('creates a task with each driver\'s own fields, and edits only the fields sent, refusing a stale editor', async () => {
    const second = p.driver2;
    const created = await call('POST', '/tasks/', p.manager, {
      date: dayFromToday(2),
      cargo: 'Щебень 20–40',
      loading_place: 'Карьер',
      unloading_place: 'Стройка',
      planned_quantity: 60,
      driver_ids: [p.driver.id],
      drivers: [{ id: p.driver.id, quantity: 22.5, transport_rate: 410 }],
    });
    expect(created.statusCode).toBe(201);
    const task = created.json() as Task;
    expect(task.driver_associations[0]).toMatchObject({ driver_id: p.driver.id, quantity: 22.5, transport_rate: 410 });
    const notAssigned = await call('POST', '/tasks/', p.manager, {
      date: dayFromToday(2), cargo: 'Песок', loading_place: 'A', unloading_place: 'B', planned_quantity: 1,
      driver_ids: [], drivers: [{ id: second.id, quantity: 1 }],
    });
    expect(notAssigned.statusCode).toBe(400);
    expect(notAssigned.json().detail).toMatch(/^drivers/);

    const edited = await call('PUT', `/tasks/${task.id}/`, p.manager, { cargo: 'Щебень 5–20', updated_at: task.updated_at });
    expect(edited.statusCode).toBe(200);
    const after = edited.json() as Task;
    expect(after).toMatchObject({ cargo: 'Щебень 5–20', loading_place: 'Карьер', planned_quantity: 60 });
    expect(after.updated_at).not.toBe(task.updated_at);

    const stale = await call('PUT', `/tasks/${task.id}/`, p.manager, { comment: 'старая вкладка', updated_at: task.updated_at });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().detail).toMatch(/изменили в другой вкладке/);
    const bad = await call('PUT', `/tasks/${task.id}/`, p.manager, { cargo: '' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toMatch(/^cargo/);
    expect((await call('PUT', `/tasks/${task.id}/`, p.otherManager, { cargo: 'чужое' })).statusCode).toBe(404);
  });

  it('moves a driver\'s assignment to another driver in one step, keeping its fields; refuses a reported one', async () => {
    const taskId = await createTask(server, p.company, { status: 'in_progress', date: '2026-11-06' });
    const associationId = await addDriver(server, taskId, p.driver.id);
    await call('PUT', `/tasks/${taskId}/drivers/${p.driver.id}/?quantity=12&transport_rate=400`, p.manager);
    const moved = await call('PUT', `/tasks/${taskId}/drivers/${p.driver.id}/move/`, p.manager, { to_driver_id: p.driver2.id });
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({ id: associationId, driver_id: p.driver2.id, quantity: 12, transport_rate: 400 });
    const back = await call('PUT', `/tasks/${taskId}/drivers/${p.driver2.id}/move/`, p.manager, { to_driver_id: p.driver2.id });
    expect(back.statusCode).toBe(400);
    expect((await call('PUT', `/tasks/${taskId}/drivers/${p.driver.id}/move/`, p.manager, { to_driver_id: p.driver2.id })).statusCode).toBe(404);
    expect((await call('PUT', `/tasks/${taskId}/drivers/${p.driver2.id}/move/`, p.manager, { to_driver_id: p.otherDriver.id })).statusCode).toBe(404);
    expect((await call('PUT', `/tasks/${taskId}/drivers/${p.driver2.id}/move/`, p.manager, { to_driver_id: '5' })).statusCode).toBe(400);
    expect((await call('PUT', `/tasks/${taskId}/drivers/${p.driver2.id}/move/`, p.otherManager, { to_driver_id: p.driver.id })).statusCode).toBe(404);
    expect((await call('PUT', `/tasks/${taskId}/drivers/${p.driver2.id}/move/`, p.driver2, { to_driver_id: p.driver.id })).statusCode).toBe(403);
    await addReport(associationId, p.driver2.id);
    const reported = await call('PUT', `/tasks/${taskId}/drivers/${p.driver2.id}/move/`, p.manager, { to_driver_id: p.driver.id });
    expect(reported.statusCode).toBe(409);
    expect(reported.json().detail).toMatch(/отчитался/);
  });

  it('lists the active tasks: the day\'s not cancelled ones and every one still in progress, scoped', async () => {
    const today = dayFromToday(0);
    const todayOpen = await createTask(server, p.company, { status: 'open', date: today });
    const todayCancelled = await createTask(server, p.company, { status: 'cancelled', date: today });
    const oldRunning = await createTask(server, p.company, { status: 'in_progress', date: dayFromToday(-3) });
    const oldDone = await createTask(server, p.company, { status: 'completed', date: dayFromToday(-3) });
    const tomorrow = await createTask(server, p.company, { status: 'in_progress', date: dayFromToday(1) });
    const foreign = await createTask(server, p.otherCompany, { status: 'in_progress', date: today });
    const list = async (user: SignedInUser, query = '') => {
      const res = await call('GET', `/tasks/active/${query}`, user);
      expect(res.statusCode).toBe(200);
      return ids(res.json() as Page<Task>);
    };
    const mine = await list(p.manager);
    expect(mine).toEqual(expect.arrayContaining([todayOpen, oldRunning]));
    for (const hidden of [todayCancelled, oldDone, tomorrow, foreign]) expect(mine).not.toContain(hidden);
    expect(await list(p.admin)).toEqual(mine);
    expect(await list(p.otherManager)).toEqual([foreign]);
    expect(await list(p.superAdmin, `?company_id=${p.otherCompany}`)).toEqual([foreign]);
    expect(await list(p.manager, `?date=${dayFromToday(1)}`)).toEqual(expect.arrayContaining([tomorrow, oldRunning]));
    expect((await call('GET', '/tasks/active/?date=2026-13-01', p.manager)).statusCode).toBe(400);
    expect((await call('GET', '/tasks/active/', p.driver)).statusCode).toBe(403);
    expect((await call('GET', '/tasks/active/')).statusCode).toBe(401);
  });

  it('each association carries its report count, newest report and reported quantity', async () => {
    const taskId = await createTask(server, p.company, { status: 'in_progress', date: '2026-11-05' });
    const associationId = await addDriver(server, taskId, p.driver.id);
    await addReport(associationId, p.driver.id);
    await addReport(associationId, p.driver.id);
    const page = (await call('GET', '/tasks/completed/?status=in_progress', p.manager)).json() as Page<Task>;
    const association = page.items.find((t) => t.id === taskId)?.driver_associations[0];
    const newest = await server.db.kysely.selectFrom('reports').select((eb) => eb.fn.max('id').as('id')).executeTakeFirstOrThrow();
    expect(association).toMatchObject({ report_count: 2, last_report_id: Number(newest.id) });
    expect(page.items.find((t) => t.id === taskId)?.updated_at).toEqual(expect.any(String));
  });

  it('creates a task in the caller\'s company, with drivers when given, and validates it', async () => {
    const body = {
      date: dayFromToday(1),
      cargo: 'Песок карьерный',
      loading_place: 'Карьер «Лесной»',
      unloading_place: 'ЖК «Северный парк»',
      planned_quantity: 80,
      rate: 320,
    };
    const created = await call('POST', '/tasks/', p.manager, body);
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ ...body, company_id: p.company, status: 'open', unit: 'т' });
    const available = (await call('GET', '/tasks/available/', p.driver)).json() as Page<Task>;
    expect(ids(available)).toContain(created.json().id);

    const withDriver = await call('POST', '/tasks/', p.admin, { ...body, driver_ids: [p.driver.id] });
    // The task's rate is the customer's price: the driver gets no own rate from it (the scale applies).
    expect(withDriver.json()).toMatchObject({ status: 'in_progress', driver_associations: [{ driver_id: p.driver.id, transport_rate: null }] });
    expect((await call('POST', '/tasks/', p.manager, { ...body, driver_ids: [p.otherDriver.id] })).statusCode).toBe(400);
    expect((await call('POST', '/tasks/', p.manager, { ...body, company_id: p.otherCompany })).statusCode).toBe(403);
    const bad = await call('POST', '/tasks/', p.manager, { ...body, cargo: '' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toMatch(/^cargo:/);
    expect((await call('POST', '/tasks/', p.superAdmin, body)).json().detail).toMatch(/^company_id:/);
    expect((await call('POST', '/tasks/', p.superAdmin, { ...body, company_id: p.otherCompany })).statusCode).toBe(201);
    expect((await call('POST', '/tasks/', p.driver, body)).statusCode).toBe(403);
  });

  it('deletes a task without reports, refuses one with reports, and only in the own company', async () => {
    const task = await createTask(server, p.company);
    expect((await call('DELETE', `/tasks/${task}/`, p.otherManager)).statusCode).toBe(404);
    expect((await call('DELETE', `/tasks/${task}/`, p.driver)).statusCode).toBe(403);
    expect((await call('DELETE', `/tasks/${task}/`, p.manager)).statusCode).toBe(204);
    expect((await call('DELETE', `/tasks/${task}/`, p.manager)).statusCode).toBe(404);
    const reported = await createTask(server, p.company);
    await addReport(await addDriver(server, reported, p.driver.id), p.driver.id);
    expect((await call('DELETE', `/tasks/${reported}/`, p.manager)).statusCode).toBe(409);
  });

  it('assigns a driver with fields from the query, updates, and removes them', async () => {
    const task = await createTask(server, p.company, { rate: 280 });
    const url = `/tasks/${task}/drivers/${p.driver.id}/`;
    const added = await call('PUT', `${url}?quantity=12&status_param=in_progress`, p.manager);
    expect(added.statusCode).toBe(200);
    expect(added.json()).toMatchObject({ driver_id: p.driver.id, quantity: 12, status: 'in_progress', transport_rate: null });
    const updated = (await call('PUT', `${url}?transport_rate=300&quantity=`, p.manager)).json() as DriverAssociation;
    expect(updated).toMatchObject({ id: added.json().id, quantity: null, transport_rate: 300, status: 'in_progress' });
    expect((await call('PUT', `/tasks/${task}/drivers/${p.otherDriver.id}/`, p.manager)).statusCode).toBe(404);
    expect((await call('PUT', `${url}?status_param=lost`, p.manager)).statusCode).toBe(400);
    expect((await call('PUT', url, p.otherManager)).statusCode).toBe(404);

    expect((await call('DELETE', url, p.manager)).statusCode).toBe(204);
    expect((await call('DELETE', url, p.manager)).statusCode).toBe(404);
    const reported = await addDriver(server, task, p.driver2.id);
    await addReport(reported, p.driver2.id);
    expect((await call('DELETE', `/tasks/${task}/drivers/${p.driver2.id}/`, p.manager)).statusCode).toBe(204);
    const kept = await server.db.kysely.selectFrom('task_drivers').select('status').where('id', '=', reported).executeTakeFirstOrThrow();
    expect(kept.status).toBe('cancelled');
  });

  it("edits a task's drivers through PUT /tasks/{id}/ with driver_ids and a drivers list", async () => {
    const task = await createTask(server, p.company);
    await addDriver(server, task, p.driver.id);
    const res = await call('PUT', `/tasks/${task}/`, p.manager, {
      driver_ids: [p.driver2.id],
      drivers: [{ id: p.driver2.id, quantity: 7, transport_rate: 410 }],
    });
    expect(res.statusCode).toBe(200);
    const updated = res.json() as Task;
    expect(updated.driver_associations.map((a) => [a.driver_id, a.quantity, a.transport_rate])).toEqual([[p.driver2.id, 7, 410]]);
    expect((await call('PUT', `/tasks/${task}/`, p.manager, {})).statusCode).toBe(400);
    // The same company check as creating a task with drivers, and nothing changes when it fails.
    const foreign = await call('PUT', `/tasks/${task}/`, p.manager, { driver_ids: [p.driver2.id, p.otherDriver.id] });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().detail).toBe('driver_ids: водитель не найден в компании задания');
    const after = (await call('GET', `/tasks/drivers/${p.driver2.id}/tasks`, p.manager)).json() as Page<Task>;
    expect(ids(after)).toEqual([task]);
  });

  it("shows a driver's current tasks and sets their order, which the driver then sees", async () => {
    const a = await createTask(server, p.company, { date: dayFromToday(1) });
    const b = await createTask(server, p.company, { date: dayFromToday(1) });
    const c = await createTask(server, p.company, { date: dayFromToday(2) });
    await addDriver(server, a, p.driver.id, { order_index: 1 });
    await addDriver(server, b, p.driver.id, { order_index: 2 });
    await addDriver(server, c, p.driver.id, { order_index: 3 });
    const day = (await call('GET', `/tasks/drivers/${p.driver.id}/tasks?date=${dayFromToday(1)}`, p.manager)).json() as Page<Task>;
    expect(ids(day)).toEqual([a, b]);
    // The manager orders one day; the other days keep theirs, and the driver sees days in date order.
    const ordered = await call('PUT', `/tasks/drivers/${p.driver.id}/tasks/order`, p.manager, { task_ids: [b, a] });
    expect(ordered.statusCode).toBe(200);
    expect(ids(ordered.json())).toEqual([b, a, c]);
    const dayAfter = (await call('GET', `/tasks/drivers/${p.driver.id}/tasks?date=${dayFromToday(1)}`, p.manager)).json() as Page<Task>;
    expect(ids(dayAfter)).toEqual([b, a]);
    const assigned = (await call('GET', '/tasks/assigned/', p.driver)).json() as Page<Task>;
    expect(ids(assigned)).toEqual([b, a, c]);
    const foreignTask = await createTask(server, p.company);
    expect((await call('PUT', `/tasks/drivers/${p.driver.id}/tasks/order`, p.manager, { task_ids: [foreignTask] })).statusCode).toBe(400);
    expect((await call('GET', `/tasks/drivers/${p.driver.id}/tasks`, p.otherManager)).statusCode).toBe(404);
    expect((await call('GET', `/tasks/drivers/${p.manager.id}/tasks`, p.manager)).statusCode).toBe(404);
    expect((await call('GET', `/tasks/drivers/${p.driver.id}/tasks`, p.driver)).statusCode).toBe(403);
    expect((await call('PUT', `/tasks/drivers/${p.driver.id}/tasks/order`, undefined, { task_ids: [a] })).statusCode).toBe(401);
  });
});
