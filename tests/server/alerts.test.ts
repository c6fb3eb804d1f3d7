/**
 * Alerts to the dispatcher (docs/alerts.md), the server's half: a driver's new report, a corrected disputed report,
 * a task taken or finished, a transfer answered reach the company's staff on the change feed as `event: alert`,
 * with the words and the screen — not its drivers, not another company; a replayed report alerts nobody again.
 * And each staff user's alert settings: defaults, saved, refused when malformed.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { makePeople, type People, type SignedInUser } from '../fixtures/accounts.ts';
import { addDriver, createTask } from '../fixtures/tasks.ts';
import { openSse, type SseReader } from '../fixtures/sse.ts';
import { encodeForm, reportForm } from '../fixtures/forms.ts';
import { JPEG_8x6 } from '../fixtures/images.ts';
import type { StaffAlert } from '../../contract/alerts.ts';

describe.each(backends)('alerts ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let p: People;
  let taskId: number;
  let association: number;
  const open: SseReader[] = [];

  serveSuite(databaseUrl, (s) => void (server = s), { listen: true, config: { eventsHeartbeatMs: 200 } });
  beforeEach(async () => {
    p = await makePeople(server);
    taskId = await createTask(server, p.company, { status: 'in_progress', cargo: 'Щебень 20-40' });
    association = await addDriver(server, taskId, p.driver.id);
  });
  afterEach(() => {
    for (const s of open.splice(0)) s.close();
  });

  async function stream(user: SignedInUser): Promise<SseReader> {
    const reader = await openSse(`${server.url}/api/events/`, user.auth);
    open.push(reader);
    await reader.next((e) => e.event === 'ready');
    return reader;
  }
  const alerts = (s: SseReader): StaffAlert[] => s.events.filter((e) => e.event === 'alert').map((e) => JSON.parse(e.data) as StaffAlert);
  const nextAlert = async (s: SseReader, skip = 0): Promise<StaffAlert> => {
    await s.next((e) => e.event === 'alert' && s.events.filter((x) => x.event === 'alert').indexOf(e) >= skip);
    return alerts(s)[skip]!;
  };

  async function postReport(key: string, extra: Record<string, string> = {}) {
    const form = reportForm(
      { ...extra, association_id: association, quantity: '24.5', total_loading_quantity: '25', loading_is_buyer: '1', unloading_is_buyer: '0', completed_at: new Date().toISOString() },
      [{ data: JPEG_8x6, filename: 'talon.jpg' }],
    );
    const { payload, headers } = await encodeForm(form);
    return server.app.inject({ method: 'POST', url: '/api/reports/', payload, headers: { ...headers, ...p.driver.auth, 'idempotency-key': key } });
  }
  const json = (user: SignedInUser, method: string, url: string, body?: unknown) =>
    fetch(`${server.url}/api${url}`, { method, headers: { ...user.auth, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

  it("a driver's new report reaches the company's staff once, with its words and screen; not drivers, not another company", async () => {
    const [manager, admin, superAdmin, driver2, stranger] = await Promise.all([p.manager, p.admin, p.superAdmin, p.driver2, p.otherManager].map(stream));
    const key = randomUUID();
    const res = await postReport(key);
    expect(res.statusCode).toBe(201);
    const reportId = (res.json() as { id: number }).id;
    for (const s of [manager!, admin!, superAdmin!]) {
      expect(await nextAlert(s)).toEqual({ kind: 'report', text: `Иван Петров: новый отчёт — №${taskId} Щебень 20-40, 24,5 т`, url: `/reports/${reportId}` });
    }
    // The same report sent again (the device's retry): answered 200, nothing new to tell.
    expect((await postReport(key)).statusCode).toBe(200);
    // A staff edit heard by all proves the silence below is not slowness.
    expect((await json(p.manager, 'PUT', `/tasks/${taskId}/`, { comment: 'после отчёта' })).status).toBe(200);
    await manager!.next((e) => e.event === 'message' && JSON.parse(e.data).path === `/tasks/${taskId}/`);
    expect(alerts(manager!)).toHaveLength(1);
    expect(alerts(driver2!)).toEqual([]);
    expect(alerts(stranger!)).toEqual([]);
  });

  it('a disputed report corrected by the driver, a task taken and finished, each alert the staff', async () => {
    const manager = await stream(p.manager);
    const created = await postReport(randomUUID());
    const reportId = (created.json() as { id: number }).id;
    await nextAlert(manager, 0);
    expect((await json(p.manager, 'POST', `/reports/${reportId}/review`, { action: 'dispute', comment: 'талон не читается' })).status).toBe(200);
    expect((await json(p.driver, 'PUT', `/reports/${reportId}`, { quantity: 24 })).status).toBe(200);
    expect(await nextAlert(manager, 1)).toEqual({ kind: 'report_fixed', text: `Иван Петров исправил оспоренный отчёт — №${taskId} Щебень 20-40`, url: `/reports/${reportId}` });

    const open = await createTask(server, p.company, { cargo: 'Песок мытый', date: '2026-12-03' });
    expect((await json(p.driver2, 'PUT', `/tasks/${open}/accept/`, {})).status).toBe(200);
    expect(await nextAlert(manager, 2)).toEqual({ kind: 'task_taken', text: `Сергей Смирнов взял задачу №${open} Песок мытый на 03.12`, url: '/dispatch?date=2026-12-03' });

    expect((await json(p.driver, 'PUT', `/tasks/${taskId}/`, { status: 'completed' })).status).toBe(200);
    const finished = await nextAlert(manager, 3);
    expect(finished.kind).toBe('task_finished');
    expect(finished.text).toBe(`Иван Петров завершил задачу №${taskId} Щебень 20-40`);
  });

  it("a report of the last trip («Последний рейс») says so and tells that the driver finished the task, as the card's button does", async () => {
    const manager = await stream(p.manager);
    const res = await postReport(randomUUID(), { final: '1' });
    expect(res.statusCode).toBe(201);
    const reportId = (res.json() as { id: number }).id;
    const { date } = await server.db.kysely.selectFrom('tasks').select('date').where('id', '=', taskId).executeTakeFirstOrThrow();
    expect(await nextAlert(manager, 0)).toEqual({ kind: 'report', text: `Иван Петров: отчёт о последнем рейсе — №${taskId} Щебень 20-40, 24,5 т`, url: `/reports/${reportId}` });
    expect(await nextAlert(manager, 1)).toEqual({ kind: 'task_finished', text: `Иван Петров завершил задачу №${taskId} Щебень 20-40`, url: `/dispatch?date=${date}` });
  });

  it("a transfer declined by the receiving carrier alerts the sender's staff, not the receiver's", async () => {
    const [sender, receiver] = await Promise.all([p.manager, p.otherManager].map(stream));
    const task = await createTask(server, p.company, { cargo: 'ПГС' });
    const created = await json(p.manager, 'POST', '/transfers/', { task_id: task, to_company_id: p.otherCompany });
    expect(created.status).toBe(201);
    const transferId = ((await created.json()) as { id: number }).id;
    expect((await json(p.otherManager, 'POST', `/transfers/${transferId}/decline`, { reason: 'нет машин' })).status).toBe(200);
    const alert = await nextAlert(sender!);
    expect(alert.kind).toBe('transfer_answered');
    expect(alert.text).toMatch(new RegExp(`^Перевозчик «.+» отклонил передачу \\(нет машин\\) — №${task} ПГС$`));
    expect(alert.url).toBe('/carrier-transfers');
    await receiver!.next((e) => e.event === 'message' && JSON.parse(e.data).path.startsWith('/transfers/'));
    expect(alerts(receiver!)).toEqual([]);
  });

  it('settings: every kind without sound until chosen; saved per user; malformed refused in Russian', async () => {
    const read = async (user: SignedInUser) => (await json(user, 'GET', '/users/me/alerts')).json();
    expect(await read(p.manager)).toEqual({ kinds: ['report', 'report_fixed', 'task_taken', 'task_finished', 'transfer_answered', 'long_wait'], sound: false, notify: false });
    const saved = await json(p.manager, 'PUT', '/users/me/alerts', { kinds: ['report', 'report'], sound: true, notify: true });
    expect(saved.status).toBe(200);
    expect(await read(p.manager)).toEqual({ kinds: ['report'], sound: true, notify: true });
    expect((await read(p.admin)).kinds).toHaveLength(6);
    const bad = await json(p.manager, 'PUT', '/users/me/alerts', { kinds: ['погода'], sound: true, notify: false });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { detail: string }).detail).toMatch(/неизвестный вид оповещения/);
    expect((await json(p.driver, 'GET', '/users/me/alerts')).status).toBe(403);
  });
});
