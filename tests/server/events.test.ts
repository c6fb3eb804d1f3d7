/**
 * The server's half of the change feed: GET /api/events/ streams a small event per successful write to those who may
 * hear of it — a driver of their own tasks, staff of their company's, nobody of another company's — with
 * Last-Event-ID replay, a reset when it cannot replay, heartbeats, and an end when the session does. Across
 * two server processes on PostgreSQL (LISTEN/NOTIFY): tests/e2e/cluster.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { makePeople, type People, type SignedInUser } from '../fixtures/accounts.ts';
import { addDriver, createTask } from '../fixtures/tasks.ts';
import { openSse, type SseReader } from '../fixtures/sse.ts';

describe.each(backends)('change feed ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let p: People;
  let taskId: number;
  const open: SseReader[] = [];

  serveSuite(databaseUrl, (s) => void (server = s), { listen: true, config: { eventsHeartbeatMs: 200, eventStreamsPerUser: 3 } });
  beforeEach(async () => {
    p = await makePeople(server);
    taskId = await createTask(server, p.company, { status: 'in_progress' });
    await addDriver(server, taskId, p.driver.id);
  });
  afterEach(() => {
    for (const s of open.splice(0)) s.close();
  });

  async function stream(user: SignedInUser, base = server.url, lastEventId?: string): Promise<SseReader> {
    const reader = await openSse(`${base}/api/events/`, { ...user.auth, ...(lastEventId ? { 'last-event-id': lastEventId } : {}) });
    open.push(reader);
    await reader.next((e) => e.event === 'ready');
    return reader;
  }

  const edit = (user: SignedInUser, body: object, base = server.url) =>
    fetch(`${base}/api/tasks/${taskId}/`, { method: 'PUT', headers: { ...user.auth, 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it("tells a task's change to its driver and its company's staff, not to other drivers nor another company", async () => {
    const [driver, manager, admin, otherDriver, stranger, superAdmin] = await Promise.all(
      [p.driver, p.manager, p.admin, p.driver2, p.otherManager, p.superAdmin].map((u) => stream(u)),
    );
    expect((await edit(p.manager, { cargo: 'Песок мытый' })).status).toBe(200);
    const path = `/tasks/${taskId}/`;
    for (const s of [driver!, manager!, admin!, superAdmin!]) expect(JSON.parse((await s.next((e) => e.event === 'message')).data)).toEqual({ path, method: 'PUT' });
    // A second change told to all who heard the first proves the others were not merely slow.
    expect((await edit(p.manager, { cargo: 'Щебень' })).status).toBe(200);
    await driver!.next((e) => e.event === 'message' && e !== driver!.events.find((x) => x.event === 'message'));
    expect(otherDriver!.events.filter((e) => e.event === 'message')).toEqual([]);
    expect(stranger!.events.filter((e) => e.event === 'message')).toEqual([]);
  });

  it("a company's rename, declared in the route table, reaches its staff and drivers, not another company", async () => {
    const [driver, manager, stranger] = await Promise.all([p.driver, p.manager, p.otherManager].map((u) => stream(u)));
    const res = await fetch(`${server.url}/api/companies/${p.company}`, {
      method: 'PUT',
      headers: { ...p.admin.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Переименованная ${p.company}` }),
    });
    expect(res.status).toBe(200);
    const told = { path: `/companies/${p.company}`, method: 'PUT' };
    for (const s of [driver!, manager!]) expect(JSON.parse((await s.next((e) => e.event === 'message')).data)).toEqual(told);
    // A task change told to both proves the stranger's silence is not mere slowness.
    expect((await edit(p.manager, { cargo: 'Щебень' })).status).toBe(200);
    await manager!.next((e) => e.event === 'message' && JSON.parse(e.data).path.startsWith('/tasks/'));
    expect(stranger!.events.filter((e) => e.event === 'message')).toEqual([]);
  });

  it("a sign-up under POST /users/ reaches the company's staff, who decide on it, not its drivers nor another company", async () => {
    const [manager, driver, stranger] = await Promise.all([p.manager, p.driver, p.otherManager].map((u) => stream(u)));
    const res = await fetch(`${server.url}/api/users/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `new-${Date.now()}@example.com`, password: 'secret123', name: 'Новый Водитель', phone: '+79990000000', company_id: p.company }),
    });
    expect(res.status).toBe(201);
    expect(JSON.parse((await manager!.next((e) => e.event === 'message')).data)).toEqual({ path: '/users/', method: 'POST' });
    // A task change told to all three proves the silence of the other two is not mere slowness.
    expect((await edit(p.manager, { cargo: 'Щебень' })).status).toBe(200);
    await driver!.next((e) => e.event === 'message');
    expect(driver!.events.filter((e) => e.event === 'message').map((e) => JSON.parse(e.data).path)).not.toContain('/users/');
    expect(stranger!.events.filter((e) => e.event === 'message')).toEqual([]);
  });

  it('a refused write tells nobody', async () => {
    const manager = await stream(p.manager);
    expect((await edit(p.otherManager, { cargo: 'Чужое' })).status).toBe(404);
    expect((await edit(p.manager, { cargo: '' })).status).toBe(400);
    expect((await edit(p.manager, { cargo: 'Своё' })).status).toBe(200);
    await manager.next((e) => e.event === 'message');
    expect(manager.events.filter((e) => e.event === 'message')).toHaveLength(1);
  });

  it('replays what a reconnect missed after its Last-Event-ID, and asks for a full refetch when it cannot', async () => {
    const first = await stream(p.manager);
    const witness = await stream(p.admin);
    const seen = first.events.at(-1)!.id!;
    first.close();
    expect((await edit(p.manager, { cargo: 'Пока не было связи' })).status).toBe(200);
    // The change is told after the answer: wait until it was, so the reconnect has something to replay.
    await witness.next((e) => e.event === 'message');
    const again = await stream(p.manager, server.url, seen);
    expect(again.events.map((e) => e.event)).toEqual(['message', 'ready']);
    expect(JSON.parse(again.events[0]!.data)).toEqual({ path: `/tasks/${taskId}/`, method: 'PUT' });

    const foreign = await stream(p.manager, server.url, 'another-instance.5');
    expect(foreign.events.map((e) => e.event)).toEqual(['reset', 'ready']);
  });

  it('holds at most EVENT_STREAMS_PER_USER streams per user: a new one ends the oldest, another user\'s are untouched', async () => {
    const staff = await stream(p.manager);
    const first = await stream(p.driver);
    const second = await stream(p.driver);
    const third = await stream(p.driver);
    const fourth = await stream(p.driver);
    await first.ended;
    // The three newest still hear the driver's task; the manager's stream was not counted against him.
    expect((await edit(p.manager, { cargo: 'После лишнего потока' })).status).toBe(200);
    for (const reader of [second, third, fourth, staff]) await reader.next((e) => e.event === 'message' && e.data.includes(`/tasks/${taskId}/`));
    expect(first.events.some((e) => e.event === 'message')).toBe(false);
  });

  it('needs a session, beats, and ends when the user is deactivated', async () => {
    const refused = await openSse(`${server.url}/api/events/`, {});
    expect(refused.status).toBe(401);
    const driver = await stream(p.driver);
    await server.db.kysely.updateTable('users').set({ is_active: 0 }).where('id', '=', p.driver.id).execute();
    await driver.ended;
  });

  it("a driver moved to another company stops hearing the old company: the move ends his stream, and a stream opened before a quiet move ends at the next beat", async () => {
    const driver = await stream(p.driver2);
    const moved = await fetch(`${server.url}/api/users/${p.driver2.id}/`, {
      method: 'PUT',
      headers: { ...p.superAdmin.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ company_id: p.otherCompany }),
    });
    expect(moved.status).toBe(200);
    await driver.ended;
    // A move made straight in the database (no call to tell the feed) is caught by the heartbeat's check.
    const other = await stream(p.driver);
    await server.db.kysely.updateTable('users').set({ company_id: p.otherCompany }).where('id', '=', p.driver.id).execute();
    await other.ended;
    expect(other.events.filter((e) => e.event === 'message')).toEqual([]);
  });
});
