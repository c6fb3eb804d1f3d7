/**
 * The history of a task's life (server/audit/history.ts): created with a driver, edited, the driver's share set,
 * a trip reported from the driver's phone, disputed, corrected, approved in bulk — each change who, when, from
 * which device, field from → to; readable by staff of the company only.
 */
import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { makePeople, type People, type SignedInUser } from '../fixtures/accounts.ts';
import { encodeForm, reportForm } from '../fixtures/forms.ts';
import { distinctPhoto } from '../fixtures/images.ts';
import type { Report, Task } from '../../contract/entities.ts';
import type { AuditEntry } from '../../contract/calls/audit.ts';

describe.each(backends)('history of changes ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let p: People;
  serveSuite(databaseUrl, (s) => void (server = s));
  beforeEach(async () => {
    p = await makePeople(server);
  });

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, user: SignedInUser, body?: unknown) =>
    server.app.inject({ method, url: `/api${url}`, headers: user.auth, ...(body === undefined ? {} : { payload: body as object }) });

  it("records a task's life field by field, newest first, with who and the driver's device", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const task = (await call('POST', '/tasks/', p.manager, { date: today, cargo: 'Песок', loading_place: 'А', unloading_place: 'Б', planned_quantity: 60, driver_ids: [p.driver.id] })).json() as Task;
    const association = task.driver_associations[0]!.id;
    expect((await call('PUT', `/tasks/${task.id}/`, p.manager, { cargo: 'Песок мытый' })).statusCode).toBe(200);
    expect((await call('PUT', `/tasks/${task.id}/drivers/${p.driver.id}/quantity/`, p.manager, { planned_quantity: 40 })).statusCode).toBe(200);
    const { payload, headers } = await encodeForm(
      reportForm({ association_id: association, quantity: '20', ticket_number: 'А-1', loading_is_buyer: '0', unloading_is_buyer: '0' }, [{ data: await distinctPhoto(99), filename: 'a.jpg' }]),
    );
    const filed = await server.app.inject({ method: 'POST', url: '/api/reports/', payload, headers: { ...headers, ...p.driver.auth, 'idempotency-key': randomUUID() } });
    const report = filed.json() as Report;
    expect((await call('POST', `/reports/${report.id}/review`, p.manager, { action: 'dispute', comment: 'Не тот талон' })).statusCode).toBe(200);
    expect((await call('PUT', `/reports/${report.id}`, p.driver, { ticket_number: 'А-2' })).statusCode).toBe(200);
    expect((await call('POST', '/reports/review/approve-clean', p.admin, { date_from: today, date_to: today })).json()).toEqual({ approved: 1 });

    const history = (await call('GET', `/audit/?entity=task&id=${task.id}`, p.manager)).json() as AuditEntry[];
    const line = (e: AuditEntry) => `${e.entity} ${e.action} ${e.changes.map((c) => `${c.field}:${String(c.from)}→${String(c.to)}`).join(' ')}`;
    const lines = history.map(line);
    // Newest first: the bulk approval, the correction (back to review), the dispute, the trip, the share, the edit, the creation.
    expect(lines[0]).toBe('report update review_status:pending→approved');
    expect(lines).toContain('report update ticket_number:А-1→А-2 review_status:disputed→pending');
    expect(lines).toContain('report update review_status:pending→disputed review_comment:null→Не тот талон');
    expect(lines).toContainEqual(expect.stringMatching(/^report create quantity:null→20 trips:null→1 ticket_number:null→А-1 final:null→0 review_status:null→pending photos:null→\d+$/));
    expect(lines).toContain('association update planned_quantity:null→40');
    expect(lines).toContain('task update cargo:Песок→Песок мытый');
    expect(lines.at(-1)).toMatch(/^task create /);
    const byDriver = history.find((e) => e.entity === 'report' && e.action === 'create')!;
    expect(byDriver).toMatchObject({ user_id: p.driver.id, user_name: 'Иван Петров' });
    expect(byDriver.device_id).toBeTruthy();
    expect(history.find((e) => line(e) === 'task update cargo:Песок→Песок мытый')).toMatchObject({ user_id: p.manager.id, device_id: null });

    // A report's own history, and who may read it.
    const own = (await call('GET', `/audit/?entity=report&id=${report.id}`, p.admin)).json() as AuditEntry[];
    expect(own.every((e) => e.entity === 'report' && e.entity_id === report.id)).toBe(true);
    expect(own).toHaveLength(4);
    expect((await call('GET', `/audit/?entity=task&id=${task.id}`, p.otherManager)).statusCode).toBe(404);
    expect((await call('GET', `/audit/?entity=task&id=${task.id}`, p.driver)).statusCode).toBe(403);
    const bad = await call('GET', '/audit/?entity=user&id=1', p.manager);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toMatch(/^entity: /);
  });

  it("names the driver of a part instead of numbers, and records a photo added and removed", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const task = (await call('POST', '/tasks/', p.manager, { date: today, cargo: 'Щебень', loading_place: 'А', unloading_place: 'Б', planned_quantity: 40, driver_ids: [p.driver2.id] })).json() as Task;
    expect((await call('PUT', `/tasks/${task.id}/drivers/${p.driver2.id}/move/`, p.manager, { to_driver_id: p.driver.id })).statusCode).toBe(200);
    const association = task.driver_associations[0]!.id;
    const form = (fields: Record<string, string>, seed: number) => encodeForm(reportForm(fields, [{ data: seedPhotos.get(seed)!, filename: `${seed}.jpg` }]));
    const seedPhotos = new Map([[1, await distinctPhoto(11)], [2, await distinctPhoto(12)]]);
    const filed = await form({ association_id: String(association), quantity: '20', loading_is_buyer: '0', unloading_is_buyer: '0' }, 1);
    const report = (await server.app.inject({ method: 'POST', url: '/api/reports/', payload: filed.payload, headers: { ...filed.headers, ...p.driver.auth, 'idempotency-key': randomUUID() } })).json() as Report;
    // The driver replaces the photo: adds the new one, then removes the old one.
    const added = await form({}, 2);
    expect((await server.app.inject({ method: 'PUT', url: `/api/reports/${report.id}`, payload: added.payload, headers: { ...added.headers, ...p.driver.auth } })).statusCode).toBe(200);
    const old = report.photos[0]!.id;
    expect((await server.app.inject({ method: 'DELETE', url: `/api/reports/${report.id}/photo?photo_id=${old}`, headers: p.driver.auth })).statusCode).toBe(204);

    const history = (await call('GET', `/audit/?entity=task&id=${task.id}`, p.manager)).json() as AuditEntry[];
    const parts = history.filter((e) => e.entity === 'association');
    expect(parts.length).toBeGreaterThan(0);
    // Every entry of the part names its driver now; the move says who from and who to, by name.
    expect(parts.every((e) => e.driver_name === 'Иван Петров')).toBe(true);
    const moved = parts.flatMap((e) => e.changes).find((c) => c.field === 'driver_id' && c.from !== null && c.to !== null);
    expect(moved).toEqual({ field: 'driver_id', from: p.driver2.name, to: 'Иван Петров' });
    expect(history.filter((e) => e.entity !== 'association').every((e) => e.driver_name === null)).toBe(true);
    // The photos: created with one, one added, the old one removed — each a change of the report's photos.
    const photos = history.filter((e) => e.entity === 'report').map((e) => e.changes.find((c) => c.field === 'photos'));
    const [removed, addedChange, created] = photos;
    const ids = (v: string | number | null | undefined) => String(v ?? '').split(',').filter(Boolean);
    expect(ids(created?.to)).toEqual([String(old)]);
    expect(ids(addedChange?.from)).toEqual([String(old)]);
    expect(ids(addedChange?.to)).toHaveLength(2);
    expect(ids(removed?.to)).toEqual(ids(addedChange?.to).filter((id) => id !== String(old)));
  });
});
