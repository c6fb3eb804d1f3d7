/**
 * The customer's link (issue 34 §3, docs/customer-link.md): links made, listed and revoked by staff; the public page
 * and its data scoped to the link's customer (another customer's trip never shows — by id, by list, by photo URL,
 * by signature URL); revoked and expired 410, a wrong token 404, guesses from one address limited; every view
 * recorded; a dispute reaching /reports as «Оспорено заказчиком» until the dispatcher answers it.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { call, makePeople, type People } from '../fixtures/accounts.ts';
import { addDriver, createTask, dayFromToday } from '../fixtures/tasks.ts';
import { makeCounterparty } from '../fixtures/registers.ts';
import { encodeForm } from '../fixtures/forms.ts';
import { JPEG_8x6, PNG_8x6 } from '../fixtures/images.ts';
import { hashToken, LINK_GUESSES } from '../../server/customer-links/links.ts';
import type { Invoice } from '../../contract/statements.ts';
import type { PublicInvoice } from '../../contract/customer-links.ts';

const minutes = (base: string, n: number) => new Date(Date.parse(base) + n * 60_000).toISOString();

describe.each(backends)('the customer link ($name)', ({ databaseUrl }) => {
  let s: TestServer;
  let p: People;
  serveSuite(databaseUrl, async (server) => {
    s = server;
    p = await makePeople(server);
  });

  /** A task of the company for the customer, the driver on it, and one finished trip with a photo and a signature. */
  async function signedTrip(customer: number, driver = p.driver) {
    const task = await createTask(s, p.company, { date: dayFromToday(0) });
    await s.db.kysely.updateTable('tasks').set({ customer_id: customer }).where('id', '=', task).execute();
    const association = await addDriver(s, task, driver.id, { status: 'in_progress' });
    const uid = randomUUID();
    const t0 = new Date(Date.now() - 2 * 3_600_000).toISOString();
    const put = (step: string, body: Record<string, unknown>) => call(s, 'PUT', `/api/trips/${uid}/steps/${step}`, { token: driver.token, body: { association_id: association, ...body } });
    expect((await put('loading_arrived', { at: t0 })).status).toBe(201);
    expect((await put('loading_departed', { at: minutes(t0, 20), loading_quantity: 20, ticket_number: `Т-${uid.slice(0, 5)}` })).status).toBe(201);
    const form = new FormData();
    form.append('data', JSON.stringify({ association_id: association, at: minutes(t0, 60), unloading_quantity: 19.5, acceptance: { kind: 'signed', receiver_name: 'Прораб Кузнецов' } }));
    form.append('photo', new Blob([JPEG_8x6], { type: 'image/jpeg' }), 'ticket.jpg');
    form.append('signature', new Blob([PNG_8x6], { type: 'image/png' }), 'signature.png');
    const { payload, headers } = await encodeForm(form);
    const res = await s.app.inject({ method: 'PUT', url: `/api/trips/${uid}/steps/unloading_departed`, payload, headers: { ...headers, authorization: `Bearer ${driver.token}` } });
    expect(res.statusCode).toBe(201);
    return { task, association, uid, report: res.json().report_id as number };
  }

  async function makeLink(customer: number, days = 7) {
    const res = await call(s, 'POST', '/api/customer-links/', { token: p.manager.token, body: { counterparty_id: customer, days } });
    expect(res.status).toBe(201);
    return res.body as { id: number; url: string; token: string; expires_at: string };
  }

  it('makes a link with an unguessable token shown once and stored only as its SHA-256', async () => {
    const customer = await makeCounterparty(s, p.company);
    const link = await makeLink(customer, 10);
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 32 bytes = 256 bits
    expect(link.url).toBe(`/c/${link.token}`);
    const row = await s.db.kysely.selectFrom('customer_links').selectAll().where('id', '=', link.id).executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(hashToken(link.token));
    expect(JSON.stringify(row)).not.toContain(link.token);
    expect(Date.parse(row.expires_at) - Date.parse(row.created_at)).toBe(10 * 86_400_000);
    const list = await call(s, 'GET', `/api/customer-links/?counterparty_id=${customer}`, { token: p.manager.token });
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    expect(JSON.stringify(list.body)).not.toContain(link.token);
    expect(list.body[0]).toMatchObject({ id: link.id, state: 'active', last_used_at: null, views: 0 });
    // Not a customer, another company's customer, bad days: refused in Russian.
    const shipper = await makeCounterparty(s, p.company, { roles: ['shipper'] });
    expect((await call(s, 'POST', '/api/customer-links/', { token: p.manager.token, body: { counterparty_id: shipper, days: 5 } })).status).toBe(400);
    const foreign = await makeCounterparty(s, p.otherCompany);
    expect((await call(s, 'POST', '/api/customer-links/', { token: p.manager.token, body: { counterparty_id: foreign, days: 5 } })).status).toBe(404);
    const bad = await call(s, 'POST', '/api/customer-links/', { token: p.manager.token, body: { counterparty_id: customer, days: 0 } });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/Срок/);
  });

  it("shows only the link's customer's trips: another customer's trip never by list, id, photo URL or signature URL", async () => {
    const mine = await makeCounterparty(s, p.company);
    const theirs = await makeCounterparty(s, p.company);
    const own = await signedTrip(mine);
    const other = await signedTrip(theirs, p.driver2);
    const link = await makeLink(mine);
    const otherLink = await makeLink(theirs);

    const page = await call(s, 'GET', `/api/c/${link.token}/trips`);
    expect(page.status).toBe(200);
    expect(page.body.trips.map((t: { id: number }) => t.id)).toEqual([own.report]);
    expect(page.body.live.map((t: { id: number }) => t.id)).toEqual([own.report]);
    const trip = page.body.trips[0];
    expect(trip).toMatchObject({ state: 'delivered', loaded: 20, unloaded: 19.5, receiver_name: 'Прораб Кузнецов', acceptance: 'signed', driver_name: 'Иван Петров' });
    expect(trip.ticket_number).toMatch(/^Т-/);
    expect(trip.photo_urls).toHaveLength(1);
    expect(page.body.totals).toMatchObject({ trips: 1, delivered: 1, signed: 1, by_unit: [{ unit: 'т', loaded: 20, unloaded: 19.5 }] });
    expect(JSON.stringify(page.body)).not.toContain('rate');

    // Its photo and signature open through the link.
    const photo = await s.app.inject({ method: 'GET', url: trip.photo_urls[0] });
    expect(photo.statusCode).toBe(200);
    expect(photo.headers['content-type']).toBe('image/jpeg');
    const signature = await s.app.inject({ method: 'GET', url: trip.signature_url });
    expect(signature.statusCode).toBe(200);
    expect(signature.headers['content-type']).toBe('image/png');

    // The other customer's trip, photo and signature: 404 through this link, whatever the id.
    const theirPage = (await call(s, 'GET', `/api/c/${otherLink.token}/trips`)).body;
    const theirTrip = theirPage.trips[0];
    expect(theirTrip.id).toBe(other.report);
    expect((await call(s, 'GET', `/api/c/${link.token}/trips/${other.report}`)).status).toBe(404);
    expect((await call(s, 'GET', `/api/c/${link.token}/trips/${own.report}`)).status).toBe(200);
    const theirPhoto = theirTrip.photo_urls[0].replace(otherLink.token, link.token);
    expect((await s.app.inject({ method: 'GET', url: theirPhoto })).statusCode).toBe(404);
    const theirSignature = theirTrip.signature_url.replace(otherLink.token, link.token);
    expect((await s.app.inject({ method: 'GET', url: theirSignature })).statusCode).toBe(404);
    expect((await call(s, 'POST', `/api/c/${link.token}/trips/${other.report}/dispute`, { body: { reason: 'Не наш рейс, не было такого' } })).status).toBe(404);
    // Another company's link never reaches this company's trips either (its customer is its own).
    expect(JSON.stringify(page.body)).not.toContain(String(theirPage.customer_name));
  });

  it('shows each trip’s waybill: its number, and the electronic title’s state with the УИД once accepted', async () => {
    const customer = await makeCounterparty(s, p.company);
    const paper = await signedTrip(customer);
    const electronic = await signedTrip(customer);
    const link = await makeLink(customer);
    const now = new Date().toISOString();
    const doc = (report: number, title: 't1' | 't2', state: 'ready' | 'accepted' | 'annulled', uid: string | null, at: string) => ({
      company_id: p.company, report_id: report, title, direction: 'out' as const, state, trip_date: dayFromToday(0), vehicle_id: null,
      file_name: null, xml: null, idempotency_key: null, sent_batch: null, uid, qr: null, signature: null, reason: null, fix: null,
      created_by: null, created_at: at, updated_at: at, ready_at: null, sent_at: null, answered_at: null, annulled_at: null,
      operator_claim: null, operator_claimed_at: null, operator_next_at: null, operator_error: null, operator_message_id: null, operator_entity_id: null,
    });
    // The accepted Т1 wins over a Т2 moved later; an annulled title is no waybill.
    await s.db.kysely.insertInto('etrn_documents').values([
      doc(electronic.report, 't1', 'accepted', 'УИД-0001-7', now),
      doc(electronic.report, 't2', 'ready', null, minutes(now, 5)),
      doc(paper.report, 't1', 'annulled', null, now),
    ]).execute();
    const trips = (await call(s, 'GET', `/api/c/${link.token}/trips`)).body.trips as { id: number; waybill: unknown }[];
    expect(trips.find((t) => t.id === paper.report)?.waybill).toEqual({ number: `${paper.task}-${paper.report}`, state: null, uid: null });
    expect(trips.find((t) => t.id === electronic.report)?.waybill).toEqual({ number: `${electronic.task}-${electronic.report}`, state: 'accepted', uid: 'УИД-0001-7' });
    expect((await call(s, 'GET', `/api/c/${link.token}/trips/${electronic.report}`)).body.waybill.state).toBe('accepted');
  });

  it('answers a revoked or expired link 410 with a plain Russian page, a wrong token 404', async () => {
    const customer = await makeCounterparty(s, p.company);
    await signedTrip(customer);
    const revoked = await makeLink(customer);
    const expired = await makeLink(customer);
    const revoke = await call(s, 'DELETE', `/api/customer-links/${revoked.id}`, { token: p.manager.token });
    expect(revoke.status).toBe(200);
    expect(revoke.body.state).toBe('revoked');
    expect((await call(s, 'DELETE', `/api/customer-links/${revoked.id}`, { token: p.otherManager.token })).status).toBe(404);
    await s.db.kysely.updateTable('customer_links').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('id', '=', expired.id).execute();

    for (const link of [revoked, expired]) {
      const api = await call(s, 'GET', `/api/c/${link.token}/trips`);
      expect(api.status).toBe(410);
      expect(api.body.detail).toMatch(/[а-я]/);
      expect(JSON.stringify(api.body)).not.toContain('Прораб');
      const html = await s.app.inject({ method: 'GET', url: `/c/${link.token}` });
      expect(html.statusCode).toBe(410);
      expect(html.headers['content-type']).toContain('text/html');
      expect(html.body).toContain('Ссылка больше не действует');
      expect(html.body).not.toContain('Прораб');
    }
    const wrong = `${'A'.repeat(43)}`;
    expect((await call(s, 'GET', `/api/c/${wrong}/trips`, { remoteAddress: '10.9.9.1' })).status).toBe(404);
    const page = await s.app.inject({ method: 'GET', url: `/c/${wrong}`, remoteAddress: '10.9.9.1' });
    expect(page.statusCode).toBe(404);
    expect(page.body).toContain('Ссылка не найдена');
    const list = await call(s, 'GET', `/api/customer-links/?counterparty_id=${customer}`, { token: p.manager.token });
    expect(list.body.map((l: { state: string }) => l.state).sort()).toEqual(['expired', 'revoked']);
  });

  it('limits the guesses from one address: past the limit even a good token answers 429 there, other addresses go on', async () => {
    const customer = await makeCounterparty(s, p.company);
    const link = await makeLink(customer);
    const address = '10.77.0.1';
    for (let i = 0; i < LINK_GUESSES.limit; i += 1) {
      const guess = await call(s, 'GET', `/api/c/${randomUUID().replaceAll('-', '')}/trips`, { remoteAddress: address });
      expect(guess.status).toBe(404);
    }
    const blocked = await call(s, 'GET', `/api/c/${link.token}/trips`, { remoteAddress: address });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await s.app.inject({ method: 'GET', url: `/c/${link.token}`, remoteAddress: address })).statusCode).toBe(429);
    expect((await call(s, 'GET', `/api/c/${link.token}/trips`, { remoteAddress: '10.77.0.2' })).status).toBe(200);
  });

  it('records every view and download with its page and address; the staff list shows the last use', async () => {
    const customer = await makeCounterparty(s, p.company);
    const { report } = await signedTrip(customer);
    const link = await makeLink(customer);
    await s.app.inject({ method: 'GET', url: `/c/${link.token}`, remoteAddress: '10.1.1.1' });
    const page = await call(s, 'GET', `/api/c/${link.token}/trips`, { remoteAddress: '10.1.1.1' });
    await call(s, 'GET', `/api/c/${link.token}/trips`, { remoteAddress: '10.1.1.1' });
    await s.app.inject({ method: 'GET', url: page.body.trips[0].photo_urls[0], remoteAddress: '10.1.1.2' });
    await call(s, 'GET', `/api/c/${link.token}/trips/${report}`, { remoteAddress: '10.1.1.3' });
    const views = await s.db.kysely.selectFrom('customer_link_views').select(['page', 'address', 'count']).where('link_id', '=', link.id).orderBy('id').execute();
    expect(views).toEqual([
      { page: 'Страница', address: '10.1.1.1', count: 1 },
      { page: 'Список рейсов', address: '10.1.1.1', count: 2 },
      { page: expect.stringMatching(/^Фото №\d+$/), address: '10.1.1.2', count: 1 },
      { page: `Рейс №${report}`, address: '10.1.1.3', count: 1 },
    ]);
    const [listed] = (await call(s, 'GET', `/api/customer-links/?counterparty_id=${customer}`, { token: p.manager.token })).body;
    expect(listed).toMatchObject({ views: 5, last_page: `Рейс №${report}`, last_address: '10.1.1.3' });
    expect(listed.last_used_at).not.toBeNull();
  });

  it('a dispute from the link reaches /reports as «Оспорено заказчиком» with the reason; the answer clears it and shows on the link', async () => {
    const customer = await makeCounterparty(s, p.company);
    const { report } = await signedTrip(customer);
    const link = await makeLink(customer);
    const short = await call(s, 'POST', `/api/c/${link.token}/trips/${report}/dispute`, { body: { reason: 'нет' } });
    expect(short.status).toBe(400);
    expect(short.body.detail).toMatch(/Причина/);
    const made = await call(s, 'POST', `/api/c/${link.token}/trips/${report}/dispute`, { body: { reason: 'Привезли 15 т, а не 19,5 т' } });
    expect(made.status).toBe(201);
    expect((await call(s, 'POST', `/api/c/${link.token}/trips/${report}/dispute`, { body: { reason: 'Ещё раз то же самое' } })).status).toBe(409);

    const listed = await call(s, 'GET', '/api/reports/?flag=customer_dispute', { token: p.manager.token });
    expect(listed.body.items.map((i: { id: number }) => i.id)).toContain(report);
    const view = (await call(s, 'GET', `/api/reports/${report}`, { token: p.manager.token })).body;
    expect(view.flags).toContainEqual({ code: 'customer_dispute', detail: 'Оспорено заказчиком: Привезли 15 т, а не 19,5 т' });
    expect(view.customer_disputes).toMatchObject([{ id: made.body.id, reason: 'Привезли 15 т, а не 19,5 т', answer: null }]);
    // A fault: «approve all clean» leaves it.
    const clean = await call(s, 'POST', '/api/reports/review/approve-clean', { token: p.manager.token, body: { date_from: dayFromToday(0), date_to: dayFromToday(0) } });
    expect(clean.status).toBe(200);
    expect((await call(s, 'GET', `/api/reports/${report}`, { token: p.manager.token })).body.review_status).toBe('pending');

    expect((await call(s, 'POST', `/api/customer-links/disputes/${made.body.id}/answer`, { token: p.otherManager.token, body: { answer: 'Проверим' } })).status).toBe(404);
    const answered = await call(s, 'POST', `/api/customer-links/disputes/${made.body.id}/answer`, { token: p.manager.token, body: { answer: 'Весы на выгрузке показали 19,5 т, талон на фото' } });
    expect(answered.status).toBe(200);
    const after = (await call(s, 'GET', `/api/reports/${report}`, { token: p.manager.token })).body;
    expect(after.flags.map((f: { code: string }) => f.code)).not.toContain('customer_dispute');
    const seen = await call(s, 'GET', `/api/c/${link.token}/trips/${report}`);
    expect(seen.body.disputes).toMatchObject([{ reason: 'Привезли 15 т, а не 19,5 т', answer: 'Весы на выгрузке показали 19,5 т, талон на фото' }]);
  });

  it('downloads through the link only his papers: the statement, his acts and invoices, his trips’ proof of delivery and waybill; each download recorded; revoked 410', async () => {
    const mine = await makeCounterparty(s, p.company);
    const theirs = await makeCounterparty(s, p.company);
    const own = await signedTrip(mine);
    const other = await signedTrip(theirs, p.driver2);
    const today = dayFromToday(0);
    await s.db.kysely.updateTable('reports').set({ review_status: 'approved' }).where('id', 'in', [own.report, other.report]).execute();
    await s.db.kysely.updateTable('tasks').set({ rate: 500 }).where('id', 'in', [own.task, other.task]).execute();
    const issue = async (customer: number) => {
      const res = await call(s, 'POST', '/api/invoices/', { token: p.manager.token, body: { counterparty_id: customer, from: today, to: today } });
      expect(res.status).toBe(201);
      return res.body as Invoice;
    };
    const myAct = await issue(mine);
    const theirAct = await issue(theirs);
    const link = await makeLink(mine);
    const base = `/api/c/${link.token}`;
    const get = (url: string) => s.app.inject({ method: 'GET', url });
    const fileName = (res: { headers: Record<string, unknown> }) => decodeURIComponent(String(res.headers['content-disposition']));

    // His acts only, with their papers through the link.
    const list = await call(s, 'GET', `${base}/invoices`);
    expect(list.status).toBe(200);
    const invoices = list.body as PublicInvoice[];
    expect(invoices.map((i) => i.id)).toEqual([myAct.id]);
    expect(invoices[0]).toMatchObject({ number: myAct.number, total: 9750, state: 'issued', act_url: `${base}/invoices/${myAct.id}/act.pdf`, invoice_url: `${base}/invoices/${myAct.id}/invoice.pdf` });
    for (const url of [invoices[0]!.act_url, invoices[0]!.invoice_url]) {
      const res = await get(url);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(fileName(res)).toContain(`№ ${myAct.number}`);
    }
    // Another customer's act by its id: 404, never his paper.
    for (const paper of ['act', 'invoice']) expect((await get(`${base}/invoices/${theirAct.id}/${paper}.pdf`)).statusCode).toBe(404);

    // The statement of a period as xlsx and PDF; a bad format or a period too long is 400 in Russian.
    const xlsx = await get(`${base}/statement?from=${today}&to=${today}&format=xlsx`);
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    const pdf = await get(`${base}/statement?from=${today}&to=${today}&format=pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(fileName(pdf)).toContain('Реестр рейсов');
    expect((await call(s, 'GET', `${base}/statement?from=${today}&to=${today}&format=json`)).status).toBe(400);
    const long = await call(s, 'GET', `${base}/statement?from=2024-01-01&to=2026-01-01&format=pdf`);
    expect(long.status).toBe(400);
    expect(long.body.detail).toMatch(/Период/);

    // His trip's papers; another customer's trip's: 404.
    const page = (await call(s, 'GET', `${base}/trips`)).body;
    expect(page.trips[0]).toMatchObject({ pod_url: `${base}/trips/${own.report}/pod.pdf`, waybill_url: `${base}/trips/${own.report}/waybill.pdf` });
    for (const url of [page.trips[0].pod_url, page.trips[0].waybill_url]) {
      const res = await get(url);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
    }
    for (const paper of ['pod', 'waybill']) expect((await get(`${base}/trips/${other.report}/${paper}.pdf`)).statusCode).toBe(404);

    // Every download is a view of the link, with what was downloaded.
    const pages = (await s.db.kysely.selectFrom('customer_link_views').select('page').where('link_id', '=', link.id).execute()).map((v) => v.page);
    const dmy = today.split('-').reverse().join('.');
    expect(pages).toEqual(
      expect.arrayContaining([
        'Акты и счета',
        `Акт PDF, код ${myAct.id}`,
        `Счёт PDF, код ${myAct.id}`,
        `Реестр XLSX ${dmy}–${dmy}`,
        `Реестр PDF ${dmy}–${dmy}`,
        `Доставка PDF, рейс №${own.report}`,
        `Накладная PDF, рейс №${own.report}`,
      ]),
    );

    // Revoked: every download is 410.
    expect((await call(s, 'DELETE', `/api/customer-links/${link.id}`, { token: p.manager.token })).status).toBe(200);
    for (const url of [`${base}/invoices`, invoices[0]!.act_url, invoices[0]!.invoice_url, `${base}/statement?from=${today}&to=${today}&format=pdf`, page.trips[0].pod_url, page.trips[0].waybill_url]) {
      expect((await get(url)).statusCode, url).toBe(410);
    }
  });
});
