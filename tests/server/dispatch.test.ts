/**
 * The dispatcher's board (docs/dispatch.md) on both databases: a day's columns, every kind of drag through the one
 * move call (assign at a place, reorder, reassign, take off), a drag on a stale board refused, a full task refused,
 * and many tasks assigned to one driver with a result per task.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { makePeople, type People, type SignedInUser } from '../fixtures/accounts.ts';
import { addDriver, addLoad, createTask } from '../fixtures/tasks.ts';
import type { Board, BoardAssignResult } from '../../contract/calls/dispatch.ts';
import { makeVehicle } from '../fixtures/registers.ts';

describe.each(backends)('dispatch board ($name)', ({ databaseUrl }) => {
  let s: TestServer;
  let p: People;
  let t: Record<'a' | 'b' | 'c' | 'd' | 'full', number>;
  const date = '2026-12-02';

  serveSuite(databaseUrl, (server) => {
    s = server;
  });
  beforeEach(async () => {
    p = await makePeople(s);
    t = {
      a: await createTask(s, p.company, { date, cargo: 'А' }),
      b: await createTask(s, p.company, { date, cargo: 'Б' }),
      c: await createTask(s, p.company, { date, cargo: 'В' }),
      d: await createTask(s, p.company, { date, cargo: 'Г' }),
      full: await createTask(s, p.company, { date, cargo: 'Полная', max_drivers: 1 }),
    };
    await addDriver(s, t.a, p.driver.id, { order_index: 1 });
    await addDriver(s, t.b, p.driver.id, { order_index: 2 });
    await addDriver(s, t.full, p.driver2.id, { order_index: 1 });
    await createTask(s, p.company, { date: '2026-12-03', cargo: 'Завтра' });
    await createTask(s, p.otherCompany, { date, cargo: 'Чужая' });
  });

  const send = (method: 'GET' | 'POST', url: string, user: SignedInUser, body?: unknown) =>
    s.app.inject({ method, url: `/api${url}`, headers: user.auth, ...(body === undefined ? {} : { payload: body as object }) });
  const board = async (user: SignedInUser = p.manager) => (await send('GET', `/dispatch/board?date=${date}`, user)).json() as Board;
  const column = (b: Board, driverId: number) => b.drivers.find((d) => d.id === driverId)?.task_ids;
  const move = (body: object, user: SignedInUser = p.manager) => send('POST', '/dispatch/move', user, { date, ...body });

  it("shows the day: the drivers' columns in their order, the tasks nobody drives, nothing of another day or company", async () => {
    const b = await board();
    expect(b.drivers.map((d) => d.name)).toEqual(['Иван Петров', 'Сергей Смирнов']);
    expect(column(b, p.driver.id)).toEqual([t.a, t.b]);
    expect(column(b, p.driver2.id)).toEqual([t.full]);
    expect(b.unassigned).toEqual([t.c, t.d]);
    expect(b.tasks.map((x) => x.cargo).sort()).toEqual(['А', 'Б', 'В', 'Г', 'Полная']);
    expect((await send('GET', `/dispatch/board?date=${date}`, p.driver)).statusCode).toBe(403);
    expect((await send('GET', `/dispatch/board?date=2026-13-01`, p.manager)).statusCode).toBe(400);
    expect((await send('GET', `/dispatch/board?date=${date}`, p.superAdmin)).json().detail).toBe('company_id: укажите компанию');
  });

  // Issue 31: «the board shows the plate» — the fleet vehicle on the driver's card, before his own old list.
  it("shows each driver's fleet vehicle: its plate and capacity", async () => {
    const vehicle = await makeVehicle(s, p.company, { plate: 'Е789КХ 750', capacity_t: 25 });
    await s.db.kysely.updateTable('users').set({ vehicle_id: vehicle }).where('id', '=', p.driver.id).execute();
    const b = await board();
    expect(b.drivers.find((d) => d.id === p.driver.id)?.vehicle).toMatchObject({ number: 'Е789КХ 750', capacity: 25 });
  });

  it('every drag is one move: assign at a place, reorder, reassign, take off', async () => {
    let b = (await move({ task_id: t.c, from_driver_id: null, to_driver_id: p.driver.id, index: 1 })).json() as Board;
    expect(column(b, p.driver.id)).toEqual([t.a, t.c, t.b]);
    expect(b.unassigned).toEqual([t.d]);
    b = (await move({ task_id: t.b, from_driver_id: p.driver.id, to_driver_id: p.driver.id, index: 0 })).json() as Board;
    expect(column(b, p.driver.id)).toEqual([t.b, t.a, t.c]);
    b = (await move({ task_id: t.a, from_driver_id: p.driver.id, to_driver_id: p.driver2.id, index: 0 })).json() as Board;
    expect([column(b, p.driver.id), column(b, p.driver2.id)]).toEqual([
      [t.b, t.c],
      [t.a, t.full],
    ]);
    b = (await move({ task_id: t.c, from_driver_id: p.driver.id, to_driver_id: null, index: 0 })).json() as Board;
    expect(column(b, p.driver.id)).toEqual([t.b]);
    expect(b.unassigned).toEqual([t.c, t.d]);
    // The driver's own list follows the board.
    const mine = (await send('GET', `/tasks/drivers/${p.driver2.id}/tasks?date=${date}`, p.manager)).json() as { items: { id: number }[] };
    expect(mine.items.map((x) => x.id)).toEqual([t.a, t.full]);
  });

  it('refuses a drag made on a stale board, onto a full task, or of a load already reported; answers why', async () => {
    const stale = await move({ task_id: t.a, from_driver_id: p.driver2.id, to_driver_id: p.driver.id, index: 0 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().detail).toMatch(/^Доска устарела/);
    expect((await move({ task_id: t.a, from_driver_id: null, to_driver_id: p.driver2.id, index: 0 })).statusCode).toBe(409);
    const full = await move({ task_id: t.full, from_driver_id: null, to_driver_id: p.driver.id, index: 0 });
    expect(full.statusCode).toBe(409);
    const reported = await addDriver(s, t.d, p.driver2.id);
    await addLoad(s, reported, 10, { review: 'pending' });
    const moved = await move({ task_id: t.d, from_driver_id: p.driver2.id, to_driver_id: p.driver.id, index: 0 });
    expect([moved.statusCode, moved.json().detail]).toEqual([409, 'Водитель уже отчитался по заданию: назначение нельзя передать другому']);
    expect((await move({ task_id: t.a, from_driver_id: p.driver.id, to_driver_id: p.otherDriver.id, index: 0 })).statusCode).toBe(404);
    expect((await move({ task_id: t.a, from_driver_id: p.driver.id, to_driver_id: p.driver2.id, index: 0 }, p.otherManager)).statusCode).toBe(404);
    expect((await move({ task_id: t.a, from_driver_id: p.driver.id, to_driver_id: p.driver2.id, index: -1 })).statusCode).toBe(400);
  });

  it('assigns many tasks to one driver, each with its result', async () => {
    const res = await send('POST', '/dispatch/assign', p.manager, { task_ids: [t.c, t.d, t.full, t.a], driver_id: p.driver2.id, date });
    expect(res.statusCode).toBe(200);
    const answer = res.json() as BoardAssignResult;
    expect(answer.results).toEqual([
      { task_id: t.c, ok: true, detail: null },
      { task_id: t.d, ok: true, detail: null },
      { task_id: t.full, ok: false, detail: 'Этот водитель уже на задаче' },
      { task_id: t.a, ok: true, detail: null },
    ]);
    expect(column(answer.board, p.driver2.id)).toEqual([t.full, t.c, t.d, t.a]);
    expect((await send('POST', '/dispatch/assign', p.manager, { task_ids: [t.c], driver_id: p.otherDriver.id, date })).json().detail).toBe('driver_id: водитель не найден в компании');
  });
});

describe.each(backends)('task suggestions ($name)', ({ databaseUrl }) => {
  let s: TestServer;
  let p: People;
  serveSuite(databaseUrl, (server) => {
    s = server;
  });
  beforeEach(async () => {
    p = await makePeople(s);
    for (const cargo of ['Щебень 20–40', 'Щебень 20–40', 'щебень 5–20', 'Песок', 'Ёмкость']) await createTask(s, p.company, { cargo });
    await createTask(s, p.otherCompany, { cargo: 'Щебень чужой' });
  });
  const get = (url: string, user: SignedInUser) => s.app.inject({ method: 'GET', url: `/api${url}`, headers: user.auth });

  it("suggests the company's earlier values, most used first, whatever the case or ё", async () => {
    expect((await get(`/tasks/suggestions?field=cargo&q=${encodeURIComponent('ЩЕБ')}`, p.manager)).json()).toEqual(['Щебень 20–40', 'щебень 5–20']);
    expect((await get(`/tasks/suggestions?field=cargo&q=${encodeURIComponent('емк')}`, p.manager)).json()).toEqual(['Ёмкость']);
    expect(((await get('/tasks/suggestions?field=cargo', p.manager)).json() as string[])[0]).toBe('Щебень 20–40');
    expect((await get('/tasks/suggestions?field=loading_place&q=%25', p.manager)).json()).toEqual([]);
    expect((await get('/tasks/suggestions?field=price', p.manager)).statusCode).toBe(400);
    expect((await get('/tasks/suggestions?field=cargo', p.driver)).statusCode).toBe(403);
  });
});
