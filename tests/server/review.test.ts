/**
 * The review of loads (docs/reports-review.md): every automatic check raised by a planted case and not by its
 * clean twin, through the real upload; the list with its filters; approve-clean; a dispute that reaches the
 * driver, their correction, and who may do what.
 */
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { beforeEach, describe, expect, it } from 'vitest';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { makePeople, type People, type SignedInUser } from '../fixtures/accounts.ts';
import { encodeForm, reportForm } from '../fixtures/forms.ts';
import { distinctPhoto } from '../fixtures/images.ts';
import { addVehicle } from '../../server/users/accounts.ts';
import type { Page, Report, Task } from '../../contract/entities.ts';
import type { DisputedReport, ReportListItem } from '../../contract/calls/reports.ts';

const today = () => new Date().toISOString().slice(0, 10);
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

describe.each(backends)('review of loads ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let p: People;
  let seed = 1;
  serveSuite(databaseUrl, (s) => void (server = s));
  beforeEach(async () => {
    p = await makePeople(server);
    await addVehicle(server.db.kysely, p.driver.id, { vehicle_number: 'А001АА 77', vehicle_brand: 'КАМАЗ', vehicle_capacity: 20 }, true);
  });

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, user: SignedInUser, body?: unknown) =>
    server.app.inject({ method, url: `/api${url}`, headers: user.auth, ...(body === undefined ? {} : { payload: body as object }) });

  async function newTask(share: number | null = null): Promise<{ task: number; association: number }> {
    const created = await call('POST', '/tasks/', p.manager, {
      date: today(),
      cargo: `Щебень ${randomUUID().slice(0, 4)}`,
      loading_place: 'Карьер «Лесной»',
      unloading_place: 'Склад',
      planned_quantity: 200,
      driver_ids: [p.driver.id],
      ...(share === null ? {} : { drivers: [{ id: p.driver.id, planned_quantity: share }] }),
    });
    const task = created.json() as Task;
    return { task: task.id, association: task.driver_associations[0]!.id };
  }

  async function trip(association: number, fields: Record<string, string>, photo?: Buffer): Promise<Report> {
    const image = photo ?? (await distinctPhoto(seed++ * 7919 + Math.floor(Math.random() * 1e6)));
    const { payload, headers } = await encodeForm(
      reportForm({ association_id: association, loading_is_buyer: '0', unloading_is_buyer: '0', completed_at: minutesAgo(1), ...fields }, [{ data: image, filename: 't.jpg' }]),
    );
    const res = await server.app.inject({ method: 'POST', url: '/api/reports/', payload, headers: { ...headers, ...p.driver.auth, 'idempotency-key': randomUUID() } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as Report;
  }
  const codes = (r: Report) => r.flags.map((f) => f.code);

  it('raises each flag on its planted case and not on its clean twin', async () => {
    const { association: a } = await newTask();
    // A clean trip: within capacity, totals agree, on time.
    const clean = await trip(a, { quantity: '20', total_loading_quantity: '20', loading_is_buyer: '1', total_unloading_quantity: '19.7', unloading_is_buyer: '1', completed_at: minutesAgo(600) });
    expect(clean.flags).toEqual([]);

    const over = await trip(a, { quantity: '24.8', completed_at: minutesAgo(500) });
    expect(codes(over)).toEqual(['over_capacity']);
    expect(over.flags[0]?.detail).toContain('24,8');
    expect(codes(await trip(a, { quantity: '21', completed_at: minutesAgo(400) }))).toEqual([]);

    const mismatch = await trip(a, { quantity: '20', total_loading_quantity: '20', loading_is_buyer: '1', total_unloading_quantity: '19', unloading_is_buyer: '1', completed_at: minutesAgo(300) });
    expect(codes(mismatch)).toEqual(['loading_unloading_mismatch']);

    const fast = await trip(a, { quantity: '20', completed_at: minutesAgo(295) });
    expect(codes(fast)).toEqual(['fast_cycle']);
    expect(fast.flags[0]?.detail).toMatch(/5 мин/);

    const late = await trip(a, { quantity: '20', completed_at: minutesAgo(31 * 60) });
    expect(codes(late)).toContain('late_filing');

    const future = await trip(a, { quantity: '20', completed_at: new Date(Date.now() + 3_600_000).toISOString() });
    expect(codes(future)).toContain('time_out_of_range');

    const ticket = await trip(a, { quantity: '20', ticket_number: 'А-4711', completed_at: minutesAgo(200) });
    expect(codes(ticket)).toEqual([]);
    const again = await trip(a, { quantity: '20', ticket_number: 'а-4711', completed_at: minutesAgo(100) });
    expect(codes(again)).toEqual(['duplicate_ticket']);
    expect(again.flags[0]?.detail).toContain(`№${ticket.id}`);
  });

  it('catches a re-used photo, also re-encoded at quality 60 and cropped by 3 %, naming the first report', async () => {
    const { association: a } = await newTask();
    const original = await distinctPhoto(424242);
    const first = await trip(a, { quantity: '20', completed_at: minutesAgo(300) }, original);
    expect(codes(first)).toEqual([]);
    const copy = await sharp(original).extract({ left: 10, top: 7, width: 300, height: 226 }).jpeg({ quality: 60 }).toBuffer();
    const reused = await trip(a, { quantity: '20', completed_at: minutesAgo(200) }, copy);
    expect(codes(reused)).toEqual(['duplicate_photo']);
    expect(reused.flags[0]?.detail).toContain(`№${first.id}`);
    // Another company's photo is not ours to compare with.
    expect(codes(await trip(a, { quantity: '20', completed_at: minutesAgo(100) }))).toEqual([]);
  });

  it("an admin tunes the company's thresholds; the next report is checked with them", async () => {
    const { association: a } = await newTask();
    const defaults = (await call('GET', `/companies/${p.company}/checks`, p.manager)).json();
    expect(defaults).toEqual({ capacity_tolerance_pct: 5, mismatch_tolerance_pct: 2, over_share_tolerance_pct: 10, min_cycle_minutes: 15, late_filing_hours: 24 });
    expect(codes(await trip(a, { quantity: '22', completed_at: minutesAgo(300) }))).toEqual(['over_capacity']);
    const tuned = { ...defaults, capacity_tolerance_pct: 15 };
    expect((await call('PUT', `/companies/${p.company}/checks`, p.manager, tuned)).statusCode).toBe(403);
    expect((await call('PUT', `/companies/${p.company}/checks`, p.admin, tuned)).json()).toEqual(tuned);
    expect(codes(await trip(a, { quantity: '22', completed_at: minutesAgo(200) }))).toEqual([]);
    const bad = await call('PUT', `/companies/${p.company}/checks`, p.admin, { ...tuned, late_filing_hours: 0 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toMatch(/^late_filing_hours: не меньше 1/);
  });

  it('flags a driver past their share by more than 10 %', async () => {
    const { association: a } = await newTask(40);
    expect(codes(await trip(a, { quantity: '20', completed_at: minutesAgo(300) }))).toEqual([]);
    expect(codes(await trip(a, { quantity: '20', completed_at: minutesAgo(200) }))).toEqual([]);
    expect(codes(await trip(a, { quantity: '5', completed_at: minutesAgo(100) }))).toEqual(['over_share']);
  });

  it('lists, filters and approves the clean loads in one action; disputes reach the driver, who corrects', async () => {
    const { task, association: a } = await newTask();
    const r1 = await trip(a, { quantity: '20', ticket_number: 'Т-1', completed_at: minutesAgo(300) });
    const r2 = await trip(a, { quantity: '24.9', ticket_number: 'Т-2', completed_at: minutesAgo(200) });
    const r3 = await trip(a, { quantity: '19', ticket_number: 'Т-3', completed_at: minutesAgo(100) });

    const list = (query = '') => call('GET', `/reports/${query}`, p.manager).then((r) => r.json() as Page<ReportListItem> & { pending: number });
    const all = await list(`?task_id=${task}`);
    expect(all.items.map((r) => r.id)).toEqual([r3.id, r2.id, r1.id]);
    expect(all.items[0]).toMatchObject({ driver_name: 'Иван Петров', task: { id: task }, ticket_number: 'Т-3', photo_count: 1, delivered: 19 });
    expect(all.items[0]?.first_photo?.url).toMatch(/^\/api\/reports\/photos\/\d+$/);
    expect((await list(`?task_id=${task}&flag=over_capacity`)).items.map((r) => r.id)).toEqual([r2.id]);
    expect((await list(`?task_id=${task}&flag=none`)).items.map((r) => r.id)).toEqual([r3.id, r1.id]);
    expect((await list('?search=т-2')).items.map((r) => r.id)).toEqual([r2.id]);
    expect((await list(`?search=петров&task_id=${task}`)).total).toBe(3);
    expect((await list(`?search=${task}`)).items.every((r) => r.task.id === task)).toBe(true);
    expect((await list(`?task_id=${task}&limit=2`)).next_offset).toBe(2);
    // Another company sees none of it; a bad filter is a Russian 400.
    expect((await call('GET', `/reports/?task_id=${task}`, p.otherManager)).json().total).toBe(0);
    expect((await call('GET', '/reports/?review=maybe', p.manager)).statusCode).toBe(400);
    expect((await call('GET', '/reports/', p.driver)).statusCode).toBe(403);

    const range = { date_from: today(), date_to: today() };
    // What the button will approve, counted the same way.
    expect((await list(`?task_id=${task}&review=pending&flag=clean`)).total).toBe(2);
    const approved = await call('POST', '/reports/review/approve-clean', p.manager, range);
    expect(approved.json()).toEqual({ approved: 2 });
    expect((await call('POST', '/reports/review/approve-clean', p.manager, range)).json()).toEqual({ approved: 0 });
    expect((await list(`?task_id=${task}&review=pending`)).items.map((r) => r.id)).toEqual([r2.id]);

    // A dispute needs its reason.
    const bare = await call('POST', `/reports/${r2.id}/review`, p.manager, { action: 'dispute' });
    expect(bare.statusCode).toBe(400);
    expect(bare.json().detail).toMatch(/^comment: укажите/);
    expect((await call('POST', `/reports/${r2.id}/review`, p.manager, { action: 'sign' })).statusCode).toBe(400);
    expect((await call('POST', `/reports/${r2.id}/review`, p.otherManager, { action: 'approve' })).statusCode).toBe(404);
    const disputed = await call('POST', `/reports/${r2.id}/review`, p.manager, { action: 'dispute', comment: 'На талоне 20,9 т, не 24,9' });
    expect(disputed.json()).toMatchObject({ review_status: 'disputed', review_comment: 'На талоне 20,9 т, не 24,9' });

    // The driver sees it with the comment, and corrects it: the checks run again and it waits for review.
    const mine = (await call('GET', `/reports/association/${a}`, p.driver)).json() as Report[];
    expect(mine.find((r) => r.id === r2.id)).toMatchObject({ review_status: 'disputed', review_comment: 'На талоне 20,9 т, не 24,9' });
    const fixed = await call('PUT', `/reports/${r2.id}`, p.driver, { quantity: 20.9 });
    expect(fixed.json()).toMatchObject({ review_status: 'pending', quantity: 20.9, flags: [] });

    // Approved is the company's word: the driver cannot change it until staff reopen it.
    expect((await call('POST', `/reports/${r2.id}/review`, p.manager, { action: 'approve' })).json()).toMatchObject({ review_status: 'approved' });
    expect((await call('POST', `/reports/${r2.id}/review`, p.manager, { action: 'approve' })).statusCode).toBe(409);
    const locked = await call('PUT', `/reports/${r2.id}`, p.driver, { quantity: 30 });
    expect(locked.statusCode).toBe(409);
    expect(locked.json().detail).toMatch(/подтверждён/);
    expect((await call('DELETE', `/reports/${r2.id}`, p.driver)).statusCode).toBe(409);
    expect((await call('POST', `/reports/${r2.id}/review`, p.admin, { action: 'reopen' })).json()).toMatchObject({ review_status: 'pending' });
    expect((await call('PUT', `/reports/${r2.id}`, p.driver, { quantity: 21 })).statusCode).toBe(200);
  });

  it("lists a driver's disputed reports, a finished task's too, with the reason, until he corrects them", async () => {
    const { task, association: a } = await newTask();
    const kept = await trip(a, { quantity: '20', completed_at: minutesAgo(300) });
    // The last trip finishes his part: the task leaves /tasks/assigned/, the dispute must not go with it.
    const last = await trip(a, { quantity: '24.9', final: '1', completed_at: minutesAgo(200) });
    expect((await call('GET', '/tasks/assigned/', p.driver)).json().items.map((t: Task) => t.id)).not.toContain(task);
    const disputed = () => call('GET', '/reports/disputed/', p.driver).then((r) => r.json() as DisputedReport[]);
    expect(await disputed()).toEqual([]);

    await call('POST', `/reports/${last.id}/review`, p.manager, { action: 'dispute', comment: 'На талоне 20,9 т' });
    await call('POST', `/reports/${kept.id}/review`, p.manager, { action: 'approve' });
    const list = await disputed();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      report: { id: last.id, review_status: 'disputed', review_comment: 'На талоне 20,9 т', quantity: 24.9 },
      task: { id: task, unit: 'т', loading_place: 'Карьер «Лесной»', unloading_place: 'Склад' },
      association_status: 'completed',
    });
    expect(list[0]?.report.photos).toHaveLength(1);
    // Another driver's list is his own; staff have the review queue instead.
    expect(await call('GET', '/reports/disputed/', p.driver2).then((r) => r.json())).toEqual([]);
    expect((await call('GET', '/reports/disputed/', p.manager)).statusCode).toBe(403);

    expect((await call('PUT', `/reports/${last.id}`, p.driver, { quantity: 20.9 })).statusCode).toBe(200);
    expect(await disputed()).toEqual([]);
  });
});
