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
    expect(ids(await list('?date_from=2026-10-15&date_to=2026-11-30'))).toEqual([recent]);
    expect(ids(await list('?status=all'))).toEqual([open, recent, old]);
    expect(await list('?limit=1')).toMatchObject({ total: 2, next_offset: 1 });
    expect(ids(await list('', p.otherManager))).toEqual([foreign]);
    expect(ids(await list('', p.superAdmin))).toEqual(expect.arrayContaining([foreign, recent, old]));
    expect((await call('GET', '/tasks/completed/?ordering=sideways', p.manager)).statusCode).toBe(400);
    expect((await call('GET', '/tasks/completed/?limit=500', p.manager)).statusCode).toBe(400);
    expect((await call('GET', '/tasks/completed/', p.driver)).statusCode).toBe(403);
    expect((await call('GET', '/tasks/completed/')).statusCode).toBe(401);
  });

  it('filters the list by company for a super-admin and refuses another company to a manager', async () => {
    const own = await createTask(server, p.company, { status: 'completed', date: '2026-11-01' });
    const foreign = await createTask(server, p.otherCompany, { status: 'completed', date: '2026-11-02' });
    const list = async (query: string, user: SignedInUser) => call('GET', `/tasks/completed/${query}`, user);
    const superOwn = (await (await list(`?company_id=${p.company}`, p.superAdmin)).json()) as Page<Task>;
    expect(ids(superOwn)).toEqual([own]);
    expect(superOwn.total).toBe(1);
    expect(ids((await (await list(`?company_id=${p.otherCompany}`, p.superAdmin)).json()) as Page<Task>)).toEqual([foreign]);
    // A manager naming their own company gets the usual list; another company is refused, not leaked.
    expect(ids((await (await list(`?company_id=${p.company}`, p.manager)).json()) as Page<Task>)).toEqual([own]);
    const refused = await list(`?company_id=${p.otherCompany}`, p.manager);
    expect(refused.statusCode).toBe(403);
    expect(refused.json<{ detail: string }>().detail).toMatch(/^company_id: /);
    const bad = await list('?company_id=abc', p.superAdmin);
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ detail: string }>().detail).toMatch(/company_id/);
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
    expect(withDriver.json()).toMatchObject({ status: 'in_progress', driver_associations: [{ driver_id: p.driver.id, transport_rate: 320 }] });
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
    expect((await call('DELETE', `/tasks/${task}/`, p.otherManager)).statusCode).toBe(403);
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
    expect(added.json()).toMatchObject({ driver_id: p.driver.id, quantity: 12, status: 'in_progress', transport_rate: 280 });
    const updated = (await call('PUT', `${url}?transport_rate=300&quantity=`, p.manager)).json() as DriverAssociation;
    expect(updated).toMatchObject({ id: added.json().id, quantity: null, transport_rate: 300, status: 'in_progress' });
    expect((await call('PUT', `/tasks/${task}/drivers/${p.otherDriver.id}/`, p.manager)).statusCode).toBe(403);
    expect((await call('PUT', `${url}?status_param=lost`, p.manager)).statusCode).toBe(400);
    expect((await call('PUT', url, p.otherManager)).statusCode).toBe(403);

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
    const ordered = await call('PUT', `/tasks/drivers/${p.driver.id}/tasks/order`, p.manager, { task_ids: [c, a] });
    expect(ordered.statusCode).toBe(200);
    expect(ids(ordered.json())).toEqual([c, a, b]);
    const assigned = (await call('GET', '/tasks/assigned/', p.driver)).json() as Page<Task>;
    expect(ids(assigned)).toEqual([c, a, b]);
    const foreignTask = await createTask(server, p.company);
    expect((await call('PUT', `/tasks/drivers/${p.driver.id}/tasks/order`, p.manager, { task_ids: [foreignTask] })).statusCode).toBe(400);
    expect((await call('GET', `/tasks/drivers/${p.driver.id}/tasks`, p.otherManager)).statusCode).toBe(403);
    expect((await call('GET', `/tasks/drivers/${p.manager.id}/tasks`, p.manager)).statusCode).toBe(404);
    expect((await call('GET', `/tasks/drivers/${p.driver.id}/tasks`, p.driver)).statusCode).toBe(403);
    expect((await call('PUT', `/tasks/drivers/${p.driver.id}/tasks/order`, undefined, { task_ids: [a] })).statusCode).toBe(401);
  });
});
