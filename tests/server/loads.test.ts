/**
 * Loads (docs/loads.md): a report is one trip's ticket, the driver's last trip (or «Завершить задачу», or staff)
 * finishes their part, and one progress figure and one status rule hold for the whole task — against a
 * hand-computed fixture: two drivers with shares 75/75 of 150 т, several trips, a shortfall, a driver taken off.
 */
import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { makePeople, type People, type SignedInUser } from '../fixtures/accounts.ts';
import { encodeForm, reportForm } from '../fixtures/forms.ts';
import { JPEG_8x6 } from '../fixtures/images.ts';
import type { Page, Report, Task } from '../../contract/entities.ts';
import { nextTaskStatus, shareOf, taskProgress } from '../../server/tasks/progress.ts';

describe('the progress figure and the status rule', () => {
  it('splits the plan evenly when no share is set, rounded to 0,5', () => {
    expect(shareOf(150, null, 2)).toBe(75);
    expect(shareOf(100, null, 3)).toBe(33.5);
    expect(shareOf(100, 40, 3)).toBe(40);
    expect(shareOf(100, null, 0)).toBe(100);
  });

  it('counts every report, also a cancelled driver’s, and says a completed task fell short', () => {
    const parts = [
      { status: 'completed', delivered: 62.5, finished_at: 'x' },
      { status: 'cancelled', delivered: 10, finished_at: null },
      { status: 'completed', delivered: 0, finished_at: 'y' },
    ];
    expect(taskProgress(150, 'completed', parts)).toEqual({ delivered: 72.5, plan: 150, drivers: 2, drivers_finished: 2, shortfall: 77.5 });
    expect(taskProgress(150, 'in_progress', parts).shortfall).toBeNull();
  });

  it('open with nobody on it, in progress while a live part goes on, completed when every live part is finished', () => {
    const going = { status: 'in_progress', finished_at: null };
    const done = { status: 'completed', finished_at: 't' };
    const off = { status: 'cancelled', finished_at: null };
    expect(nextTaskStatus('open', [])).toBe('open');
    expect(nextTaskStatus('in_progress', [off])).toBe('open');
    expect(nextTaskStatus('open', [going])).toBe('in_progress');
    expect(nextTaskStatus('in_progress', [done, going])).toBe('in_progress');
    expect(nextTaskStatus('in_progress', [done, off])).toBe('completed');
    expect(nextTaskStatus('completed', [done, going])).toBe('in_progress');
    expect(nextTaskStatus('cancelled', [done])).toBe('cancelled');
    // Staff closed a task nobody drove: it stays closed.
    expect(nextTaskStatus('completed', [])).toBe('completed');
  });
});

describe.each(backends)('loads over the API ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let p: People;
  serveSuite(databaseUrl, (s) => void (server = s));
  beforeEach(async () => {
    p = await makePeople(server);
  });

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, user: SignedInUser, body?: unknown) =>
    server.app.inject({ method, url: `/api${url}`, headers: user.auth, ...(body === undefined ? {} : { payload: body as object }) });

  async function trip(user: SignedInUser, association: number, fields: Record<string, string>) {
    const { payload, headers } = await encodeForm(reportForm({ association_id: association, loading_is_buyer: '0', unloading_is_buyer: '0', ...fields }, [{ data: JPEG_8x6, filename: 't.jpg' }]));
    return server.app.inject({ method: 'POST', url: '/api/reports/', payload, headers: { ...headers, ...user.auth, 'idempotency-key': randomUUID() } });
  }

  const taskOf = async (id: number, user: SignedInUser = p.manager) => ((await call('GET', `/tasks/bulk?ids=${id}`, user)).json() as Page<Task>).items[0] as Task;
  const assigned = async (user: SignedInUser) => ((await call('GET', '/tasks/assigned/', user)).json() as Page<Task>).items.map((t) => t.id);

  it('a task of 150 т for two drivers 75/75: trips keep the part going, the last one finishes it, the task follows one rule', async () => {
    const created = await call('POST', '/tasks/', p.manager, {
      date: new Date().toISOString().slice(0, 10),
      cargo: 'Щебень 5–20',
      loading_place: 'Карьер',
      unloading_place: 'Склад',
      planned_quantity: 150,
      driver_ids: [p.driver.id, p.driver2.id],
      drivers: [
        { id: p.driver.id, planned_quantity: 75 },
        { id: p.driver2.id, planned_quantity: 75 },
      ],
    });
    expect(created.statusCode).toBe(201);
    const task = created.json() as Task;
    expect(task.status).toBe('in_progress');
    const a = task.driver_associations.find((x) => x.driver_id === p.driver.id)!;
    const b = task.driver_associations.find((x) => x.driver_id === p.driver2.id)!;
    expect([a.share, b.share]).toEqual([75, 75]);

    // Three trips: 25 т; 20 т with 19,5 т unloaded (the unloading counts); 18 т.
    expect((await trip(p.driver, a.id, { quantity: '25', ticket_number: 'А-101' })).statusCode).toBe(201);
    expect((await trip(p.driver, a.id, { quantity: '20', total_unloading_quantity: '19.5', unloading_is_buyer: '1', ticket_number: 'А-102' })).statusCode).toBe(201);
    expect(await assigned(p.driver)).toContain(task.id);
    const last = await trip(p.driver, a.id, { quantity: '18', ticket_number: 'А-103', final: '1' });
    expect(last.statusCode).toBe(201);
    expect(last.json()).toMatchObject({ trips: 1, ticket_number: 'А-103', final: 1, review_status: 'pending' });
    expect(await assigned(p.driver)).not.toContain(task.id);

    let now = await taskOf(task.id);
    const aNow = now.driver_associations.find((x) => x.id === a.id)!;
    expect(aNow).toMatchObject({ status: 'completed', trips: 3, delivered: 62.5, share: 75 });
    expect(aNow.finished_at).not.toBeNull();
    expect(now.status).toBe('in_progress');
    expect(now.progress).toEqual({ delivered: 62.5, plan: 150, drivers: 2, drivers_finished: 1, shortfall: null });

    // A report on a finished part is refused: the outbox shows it under «Не доставлено» with this reason.
    const late = await trip(p.driver, a.id, { quantity: '5' });
    expect(late.statusCode).toBe(409);
    expect(late.json().detail).toBe('Задача уже завершена');

    // The driver sees their share and progress, not the other driver's.
    const mine = await taskOf(task.id, p.driver);
    expect(mine.driver_associations.map((x) => x.id)).toEqual([a.id]);
    expect(mine.progress.delivered).toBe(62.5);

    // Driver B carries 40 т and finishes with «Завершить задачу» (no further report): the task is done, short of plan.
    expect((await trip(p.driver2, b.id, { quantity: '40' })).statusCode).toBe(201);
    const finished = await call('PUT', `/tasks/${task.id}/`, p.driver2, { status: 'completed' });
    expect(finished.statusCode).toBe(200);
    now = await taskOf(task.id);
    expect(now.status).toBe('completed');
    expect(now.progress).toEqual({ delivered: 102.5, plan: 150, drivers: 2, drivers_finished: 2, shortfall: 47.5 });
    // Reopening is staff's.
    expect((await call('PUT', `/tasks/${task.id}/`, p.driver2, { status: 'in_progress' })).statusCode).toBe(409);

    // The last trip taken back reopens A's part, and the task with it.
    const reports = (await call('GET', `/reports/association/${a.id}`, p.driver)).json() as Report[];
    const final = reports.find((r) => r.final === 1)!;
    expect((await call('DELETE', `/reports/${final.id}`, p.driver)).statusCode).toBe(204);
    now = await taskOf(task.id);
    expect(now.status).toBe('in_progress');
    expect(now.driver_associations.find((x) => x.id === a.id)).toMatchObject({ status: 'in_progress', trips: 2, delivered: 44.5, finished_at: null });
    expect(await assigned(p.driver)).toContain(task.id);

    // Staff take A off: a driver who reported is cancelled, not deleted; their loads still count; B alone is finished.
    expect((await call('DELETE', `/tasks/${task.id}/drivers/${p.driver.id}/`, p.manager)).statusCode).toBe(204);
    now = await taskOf(task.id);
    expect(now.status).toBe('completed');
    expect(now.progress).toEqual({ delivered: 84.5, plan: 150, drivers: 1, drivers_finished: 1, shortfall: 65.5 });

    // Staff reopen the task: every finished part goes on again.
    const reopened = await call('PUT', `/tasks/${task.id}/`, p.manager, { status: 'in_progress' });
    expect(reopened.statusCode).toBe(200);
    expect((reopened.json() as Task).driver_associations.find((x) => x.id === b.id)?.status).toBe('in_progress');
    expect((reopened.json() as Task).progress.shortfall).toBeNull();
  });

  it('staff close a task by finishing every part; a driver may not set their own share', async () => {
    const created = (await call('POST', '/tasks/', p.manager, {
      date: new Date().toISOString().slice(0, 10),
      cargo: 'Песок',
      loading_place: 'Карьер',
      unloading_place: 'Склад',
      planned_quantity: 100,
      driver_ids: [p.driver.id],
    })).json() as Task;
    const a = created.driver_associations[0]!;
    expect(a.share).toBe(100);
    expect((await trip(p.driver, a.id, { quantity: '14.5' })).statusCode).toBe(201);
    expect((await taskOf(created.id)).status).toBe('in_progress');
    const own = await call('PUT', `/tasks/${created.id}/drivers/${p.driver.id}/quantity/`, p.driver, { planned_quantity: 200 });
    expect(own.statusCode).toBe(403);
    const closed = await call('PUT', `/tasks/${created.id}/`, p.manager, { status: 'completed' });
    expect(closed.json()).toMatchObject({ status: 'completed', progress: { delivered: 14.5, plan: 100, shortfall: 85.5 } });
    expect(await assigned(p.driver)).not.toContain(created.id);
  });

  it('staff may not call a task nobody drives «в работе», nor one with drivers «открыта»', async () => {
    const empty = (await call('POST', '/tasks/', p.manager, { date: new Date().toISOString().slice(0, 10), cargo: 'Грунт', loading_place: 'А', unloading_place: 'Б', planned_quantity: 30 })).json() as Task;
    expect(empty.status).toBe('open');
    const busy = await call('PUT', `/tasks/${empty.id}/`, p.manager, { status: 'in_progress' });
    expect(busy.statusCode).toBe(409);
    expect(busy.json().detail).toMatch(/нет водителей/);
    expect((await call('PUT', `/tasks/${empty.id}/`, p.manager, { driver_ids: [p.driver.id] })).json()).toMatchObject({ status: 'in_progress' });
    const open = await call('PUT', `/tasks/${empty.id}/`, p.manager, { status: 'open' });
    expect(open.statusCode).toBe(409);
    // Closing it empty-handed is staff's call, and it stays closed.
    expect((await call('PUT', `/tasks/${empty.id}/`, p.manager, { driver_ids: [] })).json()).toMatchObject({ status: 'open' });
    expect((await call('PUT', `/tasks/${empty.id}/`, p.manager, { status: 'completed' })).json()).toMatchObject({ status: 'completed', progress: { shortfall: 30 } });
  });

  it('trips and ticket numbers are read strictly: digits only, a sensible ticket text', async () => {
    const created = (await call('POST', '/tasks/', p.manager, {
      date: new Date().toISOString().slice(0, 10),
      cargo: 'ПГС',
      loading_place: 'Карьер',
      unloading_place: 'Склад',
      planned_quantity: 60,
      driver_ids: [p.driver.id],
    })).json() as Task;
    const a = created.driver_associations[0]!.id;
    for (const [fields, field] of [
      [{ quantity: '20', trips: '0' }, 'trips'],
      [{ quantity: '20', trips: '0x2' }, 'trips'],
      [{ quantity: '20', trips: '2.5' }, 'trips'],
      [{ quantity: '20', ticket_number: '<script>' }, 'ticket_number'],
      [{ quantity: '20', ticket_number: 'x'.repeat(41) }, 'ticket_number'],
    ] as const) {
      const res = await trip(p.driver, a, fields);
      expect(res.statusCode, JSON.stringify(fields)).toBe(400);
      expect(res.json().detail).toMatch(new RegExp(`^${field}: [а-яё]`, 'i'));
    }
    const { payload, headers } = await encodeForm(reportForm({ association_id: '0x10', quantity: '20', loading_is_buyer: '0', unloading_is_buyer: '0' }));
    const hex = await server.app.inject({ method: 'POST', url: '/api/reports/', payload, headers: { ...headers, ...p.driver.auth, 'idempotency-key': randomUUID() } });
    // A hex id is no id: never read as association 16.
    expect(hex.statusCode).toBe(400);
    expect(hex.json().detail).toMatch(/^association_id: /);
    const two = await trip(p.driver, a, { quantity: '40', trips: '2', ticket_number: '№ 4711/2' });
    expect(two.json()).toMatchObject({ trips: 2, ticket_number: '№ 4711/2' });
    expect((await taskOf(created.id)).driver_associations[0]).toMatchObject({ trips: 2, delivered: 40 });
  });
});
