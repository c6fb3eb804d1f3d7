import { beforeEach, describe, expect, it } from 'vitest';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { makePeople, type People, type SignedInUser } from '../fixtures/accounts.ts';
import { addDriver, createTask, dayFromToday } from '../fixtures/tasks.ts';
import type { DriverAssociation, Page, Task } from '../../contract/entities.ts';

describe.each(backends)('driver task calls ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let p: People;

  serveSuite(databaseUrl, (s) => {
    server = s;
  });
  beforeEach(async () => {
    p = await makePeople(server);
  });

  const call = (method: 'GET' | 'PUT', url: string, user?: SignedInUser, payload?: unknown) =>
    server.app.inject({
      method,
      url: `/api${url}`,
      headers: user?.auth ?? {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const ids = (page: Page<Task>) => page.items.map((t) => t.id);

  it("lists available tasks, accepts one, and shows it among assigned with the driver's own association", async () => {
    const open = await createTask(server, p.company, { rate: 410 });
    const today = await createTask(server, p.company, { date: dayFromToday(0), status: 'in_progress' });
    const past = await createTask(server, p.company, { date: dayFromToday(-1) });
    const done = await createTask(server, p.company, { status: 'completed' });
    const foreign = await createTask(server, p.otherCompany);
    const full = await createTask(server, p.company, { max_drivers: 1 });
    await addDriver(server, full, p.driver2.id);
    const mine = await createTask(server, p.company);
    await addDriver(server, mine, p.driver.id, { order_index: 4 });

    const available = (await call('GET', '/tasks/available/', p.driver)).json() as Page<Task>;
    expect(ids(available).sort()).toEqual([open, today].sort());
    expect(available.total).toBe(2);
    expect(ids(available)).not.toContain(past);
    expect(ids(available)).not.toContain(done);
    expect(ids(available)).not.toContain(foreign);

    await addDriver(server, open, p.driver2.id);
    const accepted = await call('PUT', `/tasks/${open}/accept/`, p.driver);
    expect(accepted.statusCode).toBe(200);
    const task = accepted.json() as Task;
    expect(task.status).toBe('in_progress');
    expect(task.driver_associations).toHaveLength(1);
    expect(task.driver_associations[0]).toMatchObject({
      driver_id: p.driver.id,
      status: 'accepted',
      order_index: 5,
      // The task's 410 is the customer's price: the driver takes it with no own rate (the scale) and never sees the price.
      transport_rate: null,
    });
    expect(task.rate).toBeNull();

    const after = (await call('GET', '/tasks/available/', p.driver)).json() as Page<Task>;
    expect(ids(after)).toEqual([today]);
    const assigned = (await call('GET', '/tasks/assigned/', p.driver)).json() as Page<Task>;
    expect(ids(assigned)).toEqual([mine, open]);
    const openTask = assigned.items.find((t) => t.id === open) as Task;
    expect(openTask.driver_associations.map((a) => a.driver_id)).toEqual([p.driver.id]);
  });

  it('counts the places taken by every driver, though a driver sees only their own association', async () => {
    const task = await createTask(server, p.company, { max_drivers: 3, date: dayFromToday(2) });
    await addDriver(server, task, p.driver2.id);
    const available = (await call('GET', '/tasks/available/', p.driver)).json() as Page<Task>;
    const seen = available.items.find((t) => t.id === task);
    expect(seen?.driver_associations).toEqual([]);
    expect(seen?.taken_places).toBe(1);
  });

  it('answers 409 for a task already accepted, full or no longer available, and 404 for another company', async () => {
    const task = await createTask(server, p.company);
    expect((await call('PUT', `/tasks/${task}/accept/`, p.driver)).statusCode).toBe(200);
    const again = await call('PUT', `/tasks/${task}/accept/`, p.driver);
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe('Вы уже взяли это задание');

    const full = await createTask(server, p.company, { max_drivers: 1 });
    await addDriver(server, full, p.driver2.id);
    const fullRes = await call('PUT', `/tasks/${full}/accept/`, p.driver);
    expect(fullRes.statusCode).toBe(409);
    expect(fullRes.json().detail).toBe('На задании уже нет свободных мест');

    for (const fields of [{ date: dayFromToday(-2) }, { status: 'completed' as const }, { status: 'cancelled' as const }]) {
      const gone = await createTask(server, p.company, fields);
      const res = await call('PUT', `/tasks/${gone}/accept/`, p.driver);
      expect(res.statusCode).toBe(409);
      expect(res.json().detail).toBe('Задание больше недоступно');
    }
    const foreign = await createTask(server, p.otherCompany);
    expect((await call('PUT', `/tasks/${foreign}/accept/`, p.driver)).statusCode).toBe(404);
    expect((await call('PUT', '/tasks/abc/accept/', p.driver)).statusCode).toBe(400);
  });

  it('gives the last seat to exactly one of two drivers accepting at once', async () => {
    const task = await createTask(server, p.company, { max_drivers: 1 });
    const results = await Promise.all([
      call('PUT', `/tasks/${task}/accept/`, p.driver),
      call('PUT', `/tasks/${task}/accept/`, p.driver2),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const rows = await server.db.kysely.selectFrom('task_drivers').select('id').where('task_id', '=', task).execute();
    expect(rows).toHaveLength(1);
  });

  it('searches cargo and places regardless of case, filters by date and pages', async () => {
    const sand = await createTask(server, p.company, {
      cargo: 'Песок карьерный',
      loading_place: 'Карьер «Лесной»',
      date: dayFromToday(2),
    });
    const gravel = await createTask(server, p.company, {
      cargo: 'Щебень гранитный 5–20',
      loading_place: 'Склад №2',
      date: dayFromToday(1),
    });
    const get = async (query: string) => (await call('GET', `/tasks/available/?${query}`, p.driver)).json() as Page<Task>;
    expect(ids(await get(`search=${encodeURIComponent('щебень')}`))).toEqual([gravel]);
    expect(ids(await get(`search=${encodeURIComponent('ЛЕСНОЙ')}`))).toEqual([sand]);
    expect(ids(await get(`search=${encodeURIComponent('100%')}`))).toEqual([]);
    expect(ids(await get(`date=${dayFromToday(2)}`))).toEqual([sand]);
    const first = await get('limit=1');
    expect(first).toMatchObject({ total: 2, next_offset: 1 });
    expect(ids(first)).toEqual([gravel]);
    const second = await get('limit=1&offset=1');
    expect(ids(second)).toEqual([sand]);
    expect(second.next_offset).toBeNull();
    const bad = await call('GET', '/tasks/available/?date=2024-13-45', p.driver);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toMatch(/^date:/);
  });

  it('orders assigned tasks by date, within a day by the manager\'s order, and leaves out completed and cancelled ones', async () => {
    const late = await createTask(server, p.company, { date: dayFromToday(3) });
    const early = await createTask(server, p.company, { date: dayFromToday(1) });
    const first = await createTask(server, p.company, { date: dayFromToday(5) });
    const sameDay = await createTask(server, p.company, { date: dayFromToday(1) });
    const done = await createTask(server, p.company);
    const cancelled = await createTask(server, p.company);
    await addDriver(server, late, p.driver.id, { order_index: 2 });
    await addDriver(server, early, p.driver.id, { order_index: 2, status: 'in_progress' });
    await addDriver(server, first, p.driver.id, { order_index: 1 });
    await addDriver(server, sameDay, p.driver.id, { order_index: 1 });
    await addDriver(server, done, p.driver.id, { status: 'completed' });
    await addDriver(server, cancelled, p.driver.id, { status: 'cancelled' });
    await addDriver(server, late, p.driver2.id);
    const page = (await call('GET', '/tasks/assigned/', p.driver)).json() as Page<Task>;
    expect(ids(page)).toEqual([sameDay, early, late, first]);
    expect(page.next_offset).toBeNull();
  });

  it("updates a driver's quantities: numbers set, null clears, an absent field stays", async () => {
    const task = await createTask(server, p.company);
    await addDriver(server, task, p.driver.id);
    const url = `/tasks/${task}/drivers/${p.driver.id}/quantity/`;
    const set = await call('PUT', url, p.driver, { quantity: 24.5, loading_quantity: 25, unloading_quantity: 24 });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({ quantity: 24.5, loading_quantity: 25, unloading_quantity: 24 });
    const cleared = (await call('PUT', url, p.driver, { loading_quantity: null })).json() as DriverAssociation;
    expect(cleared).toMatchObject({ quantity: 24.5, loading_quantity: null, unloading_quantity: 24 });
    const row = await server.db.kysely
      .selectFrom('task_drivers')
      .selectAll()
      .where('task_id', '=', task)
      .executeTakeFirstOrThrow();
    expect(row.loading_quantity).toBeNull();
    expect(row.quantity).toBe(24.5);

    const bad = await call('PUT', url, p.driver, { quantity: 'много' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toMatch(/^quantity:/);
    expect((await call('PUT', url, p.driver, { quantity: -1 })).statusCode).toBe(400);
  });

  it('lets a driver update only their own association and never its rate; staff of the company may', async () => {
    const task = await createTask(server, p.company);
    await addDriver(server, task, p.driver.id, { transport_rate: 300 });
    const url = `/tasks/${task}/drivers/${p.driver.id}/quantity/`;
    expect((await call('PUT', url, p.driver2, { quantity: 1 })).statusCode).toBe(403);
    expect((await call('PUT', url, p.driver, { transport_rate: 999 })).statusCode).toBe(403);
    expect((await call('PUT', url, p.driver, { transport_rate: 300, quantity: 2 })).statusCode).toBe(200);
    expect((await call('PUT', url, p.otherManager, { quantity: 3 })).statusCode).toBe(404);
    const staff = await call('PUT', url, p.manager, { transport_rate: 500, status: 'in_progress' });
    expect(staff.statusCode).toBe(200);
    expect(staff.json()).toMatchObject({ transport_rate: 500, status: 'in_progress', quantity: 2 });
    const missing = await call('PUT', `/tasks/${task}/drivers/${p.driver2.id}/quantity/`, p.manager, { quantity: 1 });
    expect(missing.statusCode).toBe(404);
  });

  it('lets a driver start their task but not move it backwards; staff change the task itself', async () => {
    const task = await createTask(server, p.company);
    await addDriver(server, task, p.driver.id);
    const started = await call('PUT', `/tasks/${task}/`, p.driver, { status: 'in_progress' });
    expect(started.statusCode).toBe(200);
    expect((started.json() as Task).driver_associations[0]?.status).toBe('in_progress');
    const back = await call('PUT', `/tasks/${task}/`, p.driver, { status: 'accepted' });
    expect(back.statusCode).toBe(409);
    expect(back.json().detail).toBe('Нельзя сменить статус с «в работе» на «принято»');
    expect((await call('PUT', `/tasks/${task}/`, p.driver2, { status: 'in_progress' })).statusCode).toBe(404);
    expect((await call('PUT', `/tasks/${task}/`, p.driver, { status: 'flying' })).statusCode).toBe(400);

    expect((await call('PUT', `/tasks/${task}/`, p.otherManager, { status: 'cancelled' })).statusCode).toBe(404);
    const cancelled = await call('PUT', `/tasks/${task}/`, p.manager, { status: 'cancelled' });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({ status: 'cancelled', driver_associations: [{ status: 'cancelled' }] });
    expect(ids((await call('GET', '/tasks/assigned/', p.driver)).json())).toEqual([]);
  });

  it("lists the driver's completed tasks newest first within a period", async () => {
    const older = await createTask(server, p.company, { date: dayFromToday(-10) });
    const newer = await createTask(server, p.company, { date: dayFromToday(-3) });
    const live = await createTask(server, p.company, { date: dayFromToday(-1) });
    const others = await createTask(server, p.company, { date: dayFromToday(-2) });
    await addDriver(server, older, p.driver.id, { status: 'completed', quantity: 20 });
    await addDriver(server, newer, p.driver.id, { status: 'completed', quantity: 22 });
    await addDriver(server, live, p.driver.id);
    await addDriver(server, others, p.driver2.id, { status: 'completed' });
    const all = (await call('GET', '/tasks/driver/completed', p.driver)).json() as Page<Task>;
    expect(ids(all)).toEqual([newer, older]);
    expect(all.items[0]?.driver_associations[0]).toMatchObject({ status: 'completed', quantity: 22 });
    const period = await call('GET', `/tasks/driver/completed?date_from=${dayFromToday(-5)}&date_to=${dayFromToday(0)}`, p.driver);
    expect(ids(period.json())).toEqual([newer]);
    // A task of the same day assigned later comes first; a page is cut after that order (on PostgreSQL from the
    // driver's own assignments, read first).
    const sameDay = await createTask(server, p.company, { date: dayFromToday(-3) });
    await addDriver(server, sameDay, p.driver.id, { status: 'completed' });
    expect(ids((await call('GET', '/tasks/driver/completed', p.driver)).json())).toEqual([sameDay, newer, older]);
    const page = (await call('GET', '/tasks/driver/completed?limit=1&offset=1', p.driver)).json() as Page<Task>;
    expect([ids(page), page.total, page.next_offset]).toEqual([[newer], 3, 2]);
  });

  it('answers tasks in bulk that the caller may see, and 400 for a malformed or too long list', async () => {
    const own = await createTask(server, p.company);
    const foreign = await createTask(server, p.otherCompany);
    const bulk = async (user: SignedInUser, list: string) =>
      (await call('GET', `/tasks/bulk?ids=${list}`, user)).json() as Page<Task>;
    expect(ids(await bulk(p.driver, `${foreign},${own},999999`))).toEqual([own]);
    expect(ids(await bulk(p.manager, `${own},${foreign}`))).toEqual([own]);
    expect(ids(await bulk(p.otherManager, `${own},${foreign}`))).toEqual([foreign]);
    expect(ids(await bulk(p.superAdmin, `${foreign},${own}`))).toEqual([foreign, own]);
    for (const list of ['', 'a,b', '1,,2', '-1', '1;2']) {
      const res = await call('GET', `/tasks/bulk?ids=${list}`, p.driver);
      expect(res.statusCode, list).toBe(400);
      expect(res.json().detail).toMatch(/^ids:/);
    }
    const tooMany = Array.from({ length: 201 }, (_, i) => i + 1).join(',');
    expect((await call('GET', `/tasks/bulk?ids=${tooMany}`, p.driver)).statusCode).toBe(400);
  });

  it("a driver reads in bulk only his own tasks and those he could take — never another driver's, nor the customer's price", async () => {
    const others = await createTask(server, p.company, { status: 'in_progress', rate: 650, comment: 'код ворот 4321', date: dayFromToday(1), max_drivers: 1 });
    await addDriver(server, others, p.driver2.id);
    const mine = await createTask(server, p.company, { status: 'in_progress', rate: 650, date: dayFromToday(-3) });
    await addDriver(server, mine, p.driver.id);
    const takeable = await createTask(server, p.company, { rate: 650, date: dayFromToday(2) });
    const full = await createTask(server, p.company, { rate: 650, date: dayFromToday(2), max_drivers: 1 });
    await addDriver(server, full, p.driver2.id);
    const past = await createTask(server, p.company, { rate: 650, date: dayFromToday(-2) });
    const seen = (await call('GET', `/tasks/bulk?ids=${[others, mine, takeable, full, past].join(',')}`, p.driver)).json() as Page<Task>;
    expect(ids(seen).sort((a, b) => a - b)).toEqual([mine, takeable].sort((a, b) => a - b));
    expect(seen.items.map((t) => t.rate)).toEqual([null, null]);
    expect(JSON.stringify(seen)).not.toContain('4321');
    // Staff still read all of them.
    expect(ids((await call('GET', `/tasks/bulk?ids=${[others, full, past].join(',')}`, p.manager)).json() as Page<Task>)).toHaveLength(3);
  });

  it('answers 401 without a token and 403 for a role that may not call', async () => {
    const task = await createTask(server, p.company);
    const driverOnly: ['GET' | 'PUT', string][] = [
      ['GET', '/tasks/available/'],
      ['PUT', `/tasks/${task}/accept/`],
      ['GET', '/tasks/assigned/'],
      ['GET', '/tasks/driver/completed'],
    ];
    for (const [method, url] of driverOnly) {
      expect((await call(method, url)).statusCode, url).toBe(401);
      expect((await call(method, url, p.manager)).statusCode, url).toBe(403);
      expect((await call(method, url, p.superAdmin)).statusCode, url).toBe(403);
    }
    for (const [method, url, body] of [
      ['GET', `/tasks/bulk?ids=${task}`, undefined],
      ['PUT', `/tasks/${task}/drivers/${p.driver.id}/quantity/`, { quantity: 1 }],
      ['PUT', `/tasks/${task}/`, { status: 'in_progress' }],
    ] as const) {
      const res = await call(method, url, undefined, body);
      expect(res.statusCode, url).toBe(401);
      expect(res.json().detail).toBe('Требуется вход в систему');
    }
    const forged = await server.app.inject({
      method: 'GET',
      url: '/api/tasks/assigned/',
      headers: { authorization: 'Bearer nonsense' },
    });
    expect(forged.statusCode).toBe(401);
  });
});
