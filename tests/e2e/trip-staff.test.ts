/**
 * End to end (issue 32): the trip as staff see it. The demo driver's trip is stamped through the API as the phone's
 * outbox sends it (`PUT /api/trips/{uid}/steps/{step}` with positions, the last step multipart with the receiver's
 * signature PNG); the manager's /dispatch shows the driver's state change live, without a reload («на погрузке с …»
 * → «в пути с грузом с …» → «свободен»); /reports/{id} at 1440 and 360 px shows the four stamps with how each was
 * made, the distance and accuracy, a map link per position, the waits (the long one marked), the receiver and the
 * signature, and its «Документы» panel takes a shipper's Т1 and warns of its differences; /reports finds the trip by
 * its «Долгий простой» flag. No horizontal scroll at either width.
 * E2E_SCREENSHOTS=<dir> saves the board and the report at both widths.
 */
import { readFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { ReportView } from '../../contract/entities.ts';
import type { TripStep } from '../../contract/trips.ts';
import { call, login } from '../fixtures/accounts.ts';
import { encodeForm } from '../fixtures/forms.ts';
import { PNG_8x6 } from '../fixtures/images.ts';
import { makePlace } from '../fixtures/registers.ts';
import { addDriver, dayFromToday } from '../fixtures/tasks.ts';
import { carrierCards, SHIPPER_EDO, stampedTrip } from '../fixtures/papers.ts';
import { DEMO, DEMO_PASSWORD, startE2eApp, type E2eApp } from './harness/app.ts';
import { newContext, trackErrors } from './harness/browser.ts';
import { waitFor } from './harness/wait.ts';
import { demoDriverId } from './pages/driver-records.ts';
import { signIn } from './pages/login-page.ts';

const shots = process.env.E2E_SCREENSHOTS;
const QUARRY = { lat: 55.5, lon: 38.2 };
const SITE = { lat: 55.6, lon: 38.3 };
/** About 300 m north of the site: farther than its radius (150 m) and the accuracy. */
const NEAR_SITE = { lat: 55.6027, lon: 38.3 };

let app: E2eApp;
beforeAll(async () => {
  app = await startE2eApp();
});
afterAll(async () => {
  await app?.close();
});

const noHorizontalScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
const clock = (iso: string) => new Date(iso).toLocaleTimeString('ru-RU', { hour: '2-digit', minute: '2-digit' });

describe('the trip as staff see it', () => {
  it('the trip settings card: Russian checks keep what was typed; a saved setting reaches the server', async () => {
    const context = await newContext(app.browser, 'shared', 360, { serviceWorkers: 'block' });
    try {
      const page = await signIn(context, app.url, DEMO.admin, DEMO_PASSWORD);
      const errors = trackErrors(page);
      await page.goto(`${app.url}/companies/manage`);
      const card = page.getByRole('region', { name: 'Рейс на телефоне водителя' });
      const longWait = card.getByLabel('Долгий простой, мин');
      await longWait.waitFor();
      expect(await longWait.inputValue()).toBe('60');
      await longWait.fill('2');
      await card.getByLabel('Автоотметка прибытия, с').fill('30,5');
      await card.getByRole('button', { name: 'Сохранить настройки рейса' }).click();
      await card.getByText('Не меньше 5 мин').waitFor();
      await card.getByText('Укажите целое число').waitFor();
      expect(await longWait.inputValue()).toBe('2');
      expect(await noHorizontalScroll(page)).toBe(true);
      if (shots) await card.screenshot({ path: `${shots}/trip-settings-360.png` });

      await longWait.fill('45');
      await card.getByLabel('Автоотметка прибытия, с').fill('90');
      await card.getByLabel('Подпись получателя').selectOption({ label: 'Одна подпись за смену' });
      await card.getByRole('button', { name: 'Сохранить настройки рейса' }).click();
      await page.getByText('Настройки рейса сохранены').waitFor();
      const company = await app.server.db.kysely.selectFrom('companies').select(['id', 'trip_settings']).where('trip_settings', 'is not', null).executeTakeFirstOrThrow();
      expect(JSON.parse(company.trip_settings ?? '{}')).toEqual({ acceptance_mode: 'per_shift', long_wait_minutes: 45, geofence_dwell_seconds: 90, no_data_minutes: 90, require_trip_sheet: false, driver_confirms: false });
      expect(errors).toEqual([]);
      // Back to the defaults for the next test.
      await app.server.db.kysely.updateTable('companies').set({ trip_settings: null }).where('id', '=', company.id).execute();
    } finally {
      await context.close();
    }
  });

  it('the board follows the driver live; the report shows the timeline, waits, map links and the signature at 1440 and 360 px', async () => {
    const manager = (await login(app.server, DEMO.manager, DEMO_PASSWORD)).access_token;
    const driverToken = (await login(app.server, DEMO.driver, DEMO_PASSWORD)).access_token;
    const driverId = await demoDriverId(app.server);
    const today = dayFromToday(0);
    const created = await call<{ id: number; company_id: number }>(app.server, 'POST', '/api/tasks/', {
      token: manager,
      body: { date: today, cargo: 'Рейс для диспетчера: щебень', loading_place: 'Карьер Южный', unloading_place: 'Объект Северный', planned_quantity: 40, rate: 600 },
    });
    expect(created.status).toBe(201);
    const { id: taskId, company_id: companyId } = created.body;
    const loading = await makePlace(app.server, companyId, { name: 'Карьер Южный', ...QUARRY });
    const unloading = await makePlace(app.server, companyId, { name: 'Объект Северный', ...SITE });
    await app.server.db.kysely.updateTable('tasks').set({ loading_place_id: loading, unloading_place_id: unloading }).where('id', '=', taskId).execute();
    const association = await addDriver(app.server, taskId, driverId, { status: 'in_progress' });

    const uid = randomUUID();
    const now = Date.now();
    const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000).toISOString();
    const times: Record<TripStep, string> = { loading_arrived: at(80), loading_departed: at(8), unloading_arrived: at(4), unloading_departed: at(1) };
    const step = async (name: TripStep, body: Record<string, unknown>) => {
      const res = await call<{ report_id: number }>(app.server, 'PUT', `/api/trips/${uid}/steps/${name}`, { token: driverToken, body: { association_id: association, at: times[name], ...body } });
      expect([name, res.status]).toEqual([name, 201]);
      return res.body.report_id;
    };

    // The manager's board before the trip.
    const desk = await newContext(app.browser, 'shared', 1440, { serviceWorkers: 'block' });
    try {
      const page = await signIn(desk, app.url, DEMO.manager, DEMO_PASSWORD);
      const errors = trackErrors(page);
      await page.goto(`${app.url}/dispatch`);
      const board = await call<{ drivers: { id: number; name: string }[] }>(app.server, 'GET', `/api/dispatch/board?date=${today}`, { token: manager });
      const driverName = board.body.drivers.find((d) => d.id === driverId)!.name;
      const state = page.getByRole('region', { name: `Колонка: ${driverName}` }).locator('[data-trip-state]');
      await state.waitFor();

      // Each step reaches the board through the change feed: no reload.
      const reportId = await step('loading_arrived', { position: { ...QUARRY, accuracy: 12 } });
      await waitFor(async () => (await state.textContent()) === `на погрузке с ${clock(times.loading_arrived)}`, { message: '«на погрузке с …» on the board' });
      if (shots) await page.screenshot({ path: `${shots}/trip-board-1440.png` });
      await step('loading_departed', { position: { ...QUARRY, accuracy: 20 }, ticket_number: '№ 4711', loading_quantity: 10 });
      await waitFor(async () => (await state.textContent()) === `в пути с грузом с ${clock(times.loading_departed)}`, { message: '«в пути с грузом» on the board' });
      await step('unloading_arrived', { position: { ...NEAR_SITE, accuracy: 10 } });
      await waitFor(async () => (await state.textContent()) === `на выгрузке с ${clock(times.unloading_arrived)}`, { message: '«на выгрузке» on the board' });
      const form = new FormData();
      form.append('data', JSON.stringify({ association_id: association, at: times.unloading_departed, position: { ...SITE, accuracy: 8 }, unloading_quantity: 9.9, acceptance: { kind: 'signed', receiver_name: 'Прораб Кузнецов', receiver_position: 'прораб' } }));
      form.append('signature', new Blob([PNG_8x6], { type: 'image/png' }), 'signature.png');
      const { payload, headers } = await encodeForm(form);
      const last = await app.server.app.inject({ method: 'PUT', url: `/api/trips/${uid}/steps/unloading_departed`, payload, headers: { ...headers, authorization: `Bearer ${driverToken}` } });
      expect(last.statusCode).toBe(201);
      await waitFor(async () => (await state.textContent()) === 'свободен', { message: '«свободен» on the board' });
      expect(errors).toEqual([]);

      const view = (await call<ReportView>(app.server, 'GET', `/api/reports/${reportId}`, { token: manager })).body;
      expect(view.flags.map((f) => f.code)).toEqual(['far_from_place', 'long_wait']);

      // The trip's Т1 accepted by the operator (the exchange's own steps are tests/server/documents.test.ts): the panel
      // shows where the title stands — «Принят» with its УИД ТрН — instead of offering to take it in.
      const waybillUid = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
      const stamp = new Date().toISOString();
      await app.server.db.kysely
        .insertInto('etrn_documents')
        .values({ company_id: companyId, report_id: reportId, title: 't1', direction: 'out', state: 'accepted', trip_date: today, uid: waybillUid, qr: waybillUid, created_at: stamp, updated_at: stamp, answered_at: stamp })
        .execute();

      for (const width of [1440, 360]) {
        await page.setViewportSize({ width, height: width < 600 ? 760 : 900 });
        await page.goto(`${app.url}/reports/${reportId}`);
        const trip = page.getByRole('region', { name: /^Рейс/ });
        const stamps = trip.getByRole('list', { name: 'Отметки рейса' }).getByRole('listitem');
        await waitFor(async () => (await stamps.count()) === 4, { message: 'four stamps' });
        expect(await stamps.nth(0).textContent()).toContain('Прибыл на погрузку');
        expect(await stamps.nth(0).textContent()).toContain(`${clock(times.loading_arrived)}`);
        expect(await stamps.nth(0).textContent()).toContain('отметка водителя · в 0 м от места · точность ±12 м');
        expect(await stamps.nth(2).textContent()).toContain('в 300 м от места · точность ±10 м');
        // A map link per stamp, and one for where the receiver signed.
        expect(await trip.getByRole('list', { name: 'Отметки рейса' }).getByRole('link', { name: /: на карте$/ }).count()).toBe(4);
        expect(await trip.getByRole('link', { name: 'Место приёмки: на карте' }).getAttribute('href')).toBe('https://yandex.ru/maps/?pt=38.3,55.6&z=16&l=map');
        expect(await trip.getByRole('link', { name: 'Прибыл на выгрузку: на карте' }).getAttribute('href')).toBe('https://yandex.ru/maps/?pt=38.3,55.6027&z=16&l=map');
        await trip.getByText('1 ч 12 мин').waitFor();
        await trip.getByText('· дольше порога 1 ч').waitFor();
        expect(await trip.getByText('Простой на выгрузке').count()).toBe(1);
        await trip.getByText('Прораб Кузнецов').waitFor();
        const signature = trip.getByRole('img', { name: 'Подпись получателя' });
        await waitFor(() => signature.evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0), { message: 'the signature decoded' });
        expect(await trip.getByText('внесён задним числом').count()).toBe(0);
        // The trip's papers: the titles with what they lack, and the proof of delivery downloaded as a PDF.
        const papers = page.getByRole('region', { name: 'Документы' });
        await papers.getByText('Т1 — сведения грузоотправителя (черновик)').waitFor();
        expect(await papers.getByRole('list', { name: /^Не хватает для Т2/ }).count()).toBe(1);
        await papers.getByText(`УИД ТрН ${waybillUid}`).waitFor();
        expect(await papers.locator('.report-papers__exchange .status-badge').allTextContents()).toEqual(['Принят']);
        if (width === 1440) {
          const downloading = page.waitForEvent('download', { timeout: 30_000 });
          await papers.getByRole('button', { name: 'Подтверждение доставки (PDF)' }).click();
          const file = await downloading;
          expect(file.suggestedFilename()).toBe(`Доставка, рейс ${reportId}.pdf`);
          expect((await readFile(await file.path())).subarray(0, 5).toString('latin1')).toBe('%PDF-');
          // A shipper's Т1 uploaded on the panel (the format's example, naming our waybill): linked, its differences
          // shown as a warning before the carrier signs Т2 (seen at 360 px below, and in the screenshots).
          const t1 = (await readFile(join(import.meta.dirname, '../fixtures/etrn-t1-shipper.xml'), 'utf8')).replace('НомерТрН="аренда2"', `НомерТрН="${taskId}-${reportId}"`);
          await papers.locator('input[type="file"][accept^=".xml"]').setInputFiles({ name: 't1.xml', mimeType: 'application/xml', buffer: Buffer.from(t1, 'utf8') });
        }
        await papers.getByRole('alert').filter({ hasText: 'Расхождения с данными рейса — проверьте до подписания Т2' }).waitFor();
        expect(await noHorizontalScroll(page)).toBe(true);
        if (shots) await page.screenshot({ path: `${shots}/trip-report-${width}.png`, fullPage: true });
      }

      // A trip filed in one form says so.
      const oldReport = await app.server.db.kysely
        .selectFrom('reports')
        .innerJoin('task_drivers', 'task_drivers.id', 'reports.association_id')
        .select('reports.id as id')
        .where('reports.after_the_fact', '=', 1)
        .where('task_drivers.driver_id', '=', driverId)
        .orderBy('reports.id')
        .executeTakeFirstOrThrow();
      await page.goto(`${app.url}/reports/${oldReport.id}`);
      await page.getByRole('region', { name: /^Рейс/ }).getByText('внесён задним числом', { exact: true }).waitFor();
      expect(await noHorizontalScroll(page)).toBe(true);

      // The review list: the new flags in the filter and on the trip's row.
      await page.goto(`${app.url}/reports?flag=long_wait`);
      await page.getByText(/талон № 4711/).first().waitFor();
      await page.locator('.report-flag', { hasText: 'Долгий простой' }).first().waitFor();
      const options = await page.getByLabel('Замечания').locator('option').allTextContents();
      expect(options).toEqual(expect.arrayContaining(['Отметка далеко от места', 'Нет подписи получателя', 'Долгий простой']));
      expect(await noHorizontalScroll(page)).toBe(true);

      await page.goto(`${app.url}/dispatch`);
      await state.waitFor();
      expect(await state.textContent()).toBe('свободен');
      expect(await noHorizontalScroll(page)).toBe(true);
      // The columns scroll sideways inside the board on a phone: bring the driver's into view.
      await state.evaluate((el) => el.closest('section')?.scrollIntoView({ inline: 'start', block: 'nearest' }));
      if (shots) await page.screenshot({ path: `${shots}/trip-board-360.png` });

      // «Активные задачи»: the driver's trips of the day with their waits (docs/trips.md «Рейсы по дням»).
      await page.goto(`${app.url}/tasks/active`);
      const trips = page.locator(`[aria-label="${driverName}: рейсы дня"]`);
      await trips.waitFor();
      expect(await trips.textContent()).toBe('рейсов 1 · погрузка 1 ч 12 мин · выгрузка 3 мин');
      if (shots) await page.screenshot({ path: `${shots}/trip-days-active-360.png`, fullPage: true });
      expect(errors).toEqual([]);
    } finally {
      await desk.close();
    }
  });

  it('«Документы»: a trip’s Т1 filtered, selected and marked ready from the selection’s bar, the day’s zip downloaded and the title marked sent', async () => {
    const company = (await app.server.db.kysely.selectFrom('users').select('company_id').where('email', '=', DEMO.manager).executeTakeFirstOrThrow()).company_id as number;
    const cards = await carrierCards(app.server, company, { shipperEdo: SHIPPER_EDO, carrierEdo: true, plate: ['М777ОР99', 'М777ОР 99'], placeSuffix: ' (ЭТрН)' });
    const day = dayFromToday(-1);
    const trip = await stampedTrip(app.server, cards, day, 'Документов Пётр Ильич');
    const manager = (await login(app.server, DEMO.manager, DEMO_PASSWORD)).access_token;
    const taken = await call<{ id: number }>(app.server, 'POST', '/api/documents/', { token: manager, body: { report_id: trip.trip, title: 't1' } });
    expect(taken.status).toBe(201);
    const context = await newContext(app.browser, 'shared', 1440, { serviceWorkers: 'block' });
    try {
      const page = await signIn(context, app.url, DEMO.manager, DEMO_PASSWORD);
      const errors = trackErrors(page);
      await page.getByRole('link', { name: 'Документы', exact: true }).click();
      await page.getByRole('heading', { name: 'Документы' }).waitFor();
      await page.getByLabel('Состояние').selectOption('draft');
      await waitFor(() => new URL(page.url()).searchParams.get('state') === 'draft', { message: 'the state filter in the URL' });
      const row = page.getByRole('row').filter({ hasText: `№ ${trip.task}-${trip.trip}` });
      await row.getByText('Черновик').waitFor();
      // Selected (the page's all, the other drafts of the day included), marked ready in one call from the bar.
      await page.getByRole('checkbox', { name: 'Выбрать все на странице' }).check();
      const bar = page.getByRole('toolbar', { name: 'Действия с выбранными' });
      if (shots) {
        await page.screenshot({ path: `${shots}/documents-selected-1440.png`, fullPage: true });
        await page.setViewportSize({ width: 360, height: 780 });
        await page.screenshot({ path: `${shots}/documents-selected-360.png`, fullPage: true });
        await page.setViewportSize({ width: 1440, height: 900 });
      }
      await bar.getByRole('button', { name: /^Готов к подписи \(\d+\)$/ }).click();
      await page.getByRole('button', { name: 'Отметить готовыми' }).click();
      await page.getByRole('status').filter({ hasText: 'Готов к подписи:' }).waitFor();
      if (shots) await page.screenshot({ path: `${shots}/documents-bulk-result-1440.png`, fullPage: true });
      await page.getByLabel('Состояние').selectOption('ready');
      await row.getByText('Готов к подписи').waitFor();

      await page.getByLabel('День рейсов для архива').fill(day.split('-').reverse().join('.'));
      const downloading = page.waitForEvent('download', { timeout: 30_000 });
      await page.getByRole('button', { name: 'Скачать ZIP за день' }).click();
      const file = await downloading;
      expect(file.suggestedFilename()).toBe(`ЭТрН ${day.split('-').reverse().join('.')}.zip`);
      expect((await readFile(await file.path())).subarray(0, 2).toString('latin1')).toBe('PK');
      await page.getByLabel('Состояние').selectOption('sent');
      await row.getByText('Отправлен').waitFor();
      const stored = await app.server.db.kysely.selectFrom('etrn_documents').select(['state', 'sent_at']).where('id', '=', taken.body.id).executeTakeFirstOrThrow();
      expect(stored.state).toBe('sent');
      expect(await noHorizontalScroll(page)).toBe(true);
      if (shots) {
        await page.screenshot({ path: `${shots}/documents-1440.png`, fullPage: true });
        await page.setViewportSize({ width: 360, height: 780 });
        await page.screenshot({ path: `${shots}/documents-360.png`, fullPage: true });
      }
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
