/**
 * End to end (issue 32): the trip as it happens on a 360 px phone with its position emulated over CDP
 * (`Emulation.setGeolocationOverride`). The company's dwell is set to its minimum (10 s) through the API; after an
 * undone mistaken tap and «Начать рейс», the truck drives into the quarry's radius and stays: the arrival is stamped
 * by itself (at the time of entry, not before the dwell); leaving the radius opens the ticket's sheet with the
 * departure's time, filled by hand; entering the site's radius stamps the arrival at unloading; the server stores the
 * three as `auto`, the tapped «Выгружен» as `tap`. Then a corrected time, then a second trip with the server and the network
 * gone; a reload keeps it (IndexedDB, the service worker's shell), and once they are back every step reaches the
 * server exactly once (counted at the proxy). The company asks for one signature a shift: at the day's end the
 * receiver signs once on the touch screen for both trips, sent once as POST /trips/acceptance, and the trips read
 * «подписано за смену». The company also asks the driver to confirm the cargo by his ПЭП (issue 33 §1): he ticks «Груз
 * принят к перевозке» and «Груз сдан» on the two sheets; trip 1's Т2, signed by him, is made ready, exported and
 * accepted through the files adapter's answers, and his card shows «принят» with the QR, offline too. Layout at 360
 * and 1440 px: no horizontal scroll.
 * E2E_SCREENSHOTS=<dir> saves the card and the sheet.
 */
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { newContext, trackErrors } from './harness/browser.ts';
import { waitForServiceWorker } from './harness/engine.ts';
import { useDriverSuite } from './pages/driver-suite.ts';
import { signInAsDriver } from './pages/driver-session.ts';
import { waitForEngine } from './pages/driver-outbox.ts';
import { AvailableTasksPage, CurrentTasksPage } from './pages/driver-tasks.ts';
import { DEMO, DEMO_PASSWORD } from './harness/app.ts';
import { carrierCards, SHIPPER_EDO } from '../fixtures/papers.ts';
import { pdfText, schemaErrors } from '../fixtures/read-back.ts';

const CARGO = 'Щебень гранитный 5–20';
const shots = process.env.E2E_SCREENSHOTS;
const suite = useDriverSuite(1);

/** The demo's places (server/db/seed-registers.ts): the task's quarry (radius 500 m) and site (150 m); Moscow's centre, far from both. */
const QUARRY = { latitude: 55.6461, longitude: 37.9326 };
const SITE = { latitude: 55.8231, longitude: 37.9612 };
const OUTSIDE = { latitude: 55.7512, longitude: 37.6184 };
/** The company's automatic-arrival dwell, its minimum (contract/trips.ts). */
const DWELL_S = 10;

type Cdp = Awaited<ReturnType<BrowserContext['newCDPSession']>>;
let moves = 0;
/**
 * The emulated position `step` × ~10 m north of `at` (each move a new point), once the page has it: Chromium keeps
 * only the latest position, so a move made before the page took the one before would hide it. The page's last fix
 * (a one-shot read of the cached position) is the one its watchers were just given.
 */
async function moveTo(page: Page, cdp: Cdp, at: { latitude: number; longitude: number }, step: number): Promise<void> {
  moves += 1;
  const latitude = at.latitude + step * 0.0001 + moves * 1e-6;
  await cdp.send('Emulation.setGeolocationOverride', { latitude, longitude: at.longitude, accuracy: 12 });
  await page.waitForFunction(
    (lat) =>
      new Promise<boolean>((resolve) => {
        navigator.geolocation.getCurrentPosition(
          (p) => resolve(p.coords.latitude === lat),
          () => resolve(false),
          { maximumAge: Infinity, timeout: 1000 },
        );
      }),
    latitude,
    { polling: 100 },
  );
}
/** A staff member's access token through the proxy: signed in with the demo password. */
async function staffToken(url: string, email: string, device = `e2e-${email}`): Promise<string> {
  const login = await fetch(`${url}/api/auth/login/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: email, password: DEMO_PASSWORD, device_id: device }) });
  return ((await login.json()) as { access_token: string }).access_token;
}

/** A staff member's calls through the proxy: signed in with the demo password. */
async function apiAs(url: string, email: string) {
  const access_token = await staffToken(url, email);
  return async (method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> => {
    const res = await fetch(`${url}/api${path}`, {
      method,
      headers: { authorization: `Bearer ${access_token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: await res.json() };
  };
}

const noHorizontalScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

describe('the trip as it happens (360 px)', () => {
  it('drives a trip stamped by its places\' radiuses (arrivals by themselves, the departure\'s sheet opened on leaving) after an undone tap, then taps a second one offline that survives a reload and is delivered once when the server is back', async () => {
    const { browser, url, proxy } = suite.app;
    const context = await newContext(browser, 'shared', 360);
    try {
      // The company asks for one signature a shift (the trip's own «Выгружен» asks for none, the day's end does), and
      // its automatic arrival waits the shortest dwell: set by its admin through the API, as the card does.
      const admin = await apiAs(url, DEMO.admin);
      const driverRow = await suite.app.server.db.kysely.selectFrom('users').select('company_id').where('email', '=', DEMO.driver).executeTakeFirstOrThrow();
      const put = await admin('PUT', `/companies/${driverRow.company_id}/trip-settings`, { acceptance_mode: 'per_shift', long_wait_minutes: 60, geofence_dwell_seconds: DWELL_S, no_data_minutes: 90, driver_confirms: true });
      expect([put.status, (put.body as { geofence_dwell_seconds?: number }).geofence_dwell_seconds]).toEqual([200, DWELL_S]);
      await context.grantPermissions(['geolocation'], { origin: url });
      const page = await context.newPage();
      const errors = trackErrors(page);
      const db = suite.app.server.db.kysely;
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setGeolocationOverride', { latitude: 55.7512, longitude: 37.6184, accuracy: 12 });
      await signInAsDriver(page, url);
      await waitForServiceWorker(page);
      await (await new AvailableTasksPage(page, url).goto()).accept(CARGO);
      const current = await new CurrentTasksPage(page, url).goto();
      const card = current.card(CARGO);
      const trip = card.getByRole('region', { name: /^Рейс по задаче №/ });
      const big = (name: string) => trip.getByRole('button', { name, exact: true });

      // A mistaken tap, taken back within its window: nothing was queued for good.
      await big('Прибыл на погрузку').click();
      await trip.getByRole('button', { name: /^Отменить \(\d+ с\)$/ }).click();
      await page.getByText('Отметка «Прибыл на погрузку» отменена').waitFor();
      await big('Прибыл на погрузку').waitFor();

      // The watch starts with the task under way, as a driver starts it; then the truck drives into the quarry's radius.
      await card.getByRole('button', { name: 'Начать рейс' }).click();
      await card.getByRole('button', { name: 'Начать рейс' }).waitFor({ state: 'detached' });
      const enteredAt = Date.now();
      await moveTo(page, cdp, QUARRY, 0);
      const enteredBy = Date.now();
      // It stays put (Chromium gives no new fix while the position holds): after the dwell the arrival stamps itself.
      await big('Загружен, выезжаю').waitFor({ timeout: (DWELL_S + 30) * 1000 });
      // Not before the dwell, and at the time of entry.
      expect(Date.now() - enteredAt).toBeGreaterThanOrEqual(DWELL_S * 1000);
      await page.getByText(/^Отмечено автоматически: Прибыл на погрузку в \d\d:\d\d/).waitFor();
      const arrivedStep = trip.locator('.drv-trip__step').first();
      await arrivedStep.getByText(/^авто · ±12 м · /).waitFor();
      // The position the stamp carries is the entry's: its accuracy is on the timeline.
      await trip.getByText(/±12 м/).first().waitFor();
      if (shots) await card.screenshot({ path: `${shots}/trip-card-360.png` });
      expect(await noHorizontalScroll(page)).toBe(true);

      // Loaded; the truck leaves the radius: the ticket's sheet opens by itself with the departure's time.
      await moveTo(page, cdp, QUARRY, 1);
      await moveTo(page, cdp, OUTSIDE, 0);
      const sheet = page.getByRole('dialog', { name: 'Загружен, выезжаю' });
      await sheet.getByText(/^Телефон заметил выезд в \d\d:\d\d: это время и будет отмечено\./).waitFor();
      await sheet.getByLabel('Номер талона').fill('№ 15');
      await sheet.getByLabel(/^Загружено по талону/).fill('20,5');
      await sheet.locator('label', { hasText: 'Из галереи' }).locator('input[type=file]').setInputFiles(suite.photos);
      await sheet.getByText('сжатие...').waitFor({ state: 'detached', timeout: 30_000 });
      // The company asks the driver to confirm by his ПЭП: «Груз принят к перевозке» with the mass he typed, a remark.
      await sheet.getByRole('checkbox', { name: /^Груз принят к перевозке: 20,5 т/ }).check();
      await sheet.getByLabel('Замечания к грузу').fill('Борт кузова помят');
      if (shots) await page.screenshot({ path: `${shots}/trip-sheet-360.png` });
      expect(await noHorizontalScroll(page)).toBe(true);
      await sheet.getByRole('button', { name: 'Отметить' }).click();
      await sheet.waitFor({ state: 'detached' });
      await trip.locator('.drv-trip__step').nth(1).getByText(/^авто · ±12 м · /).waitFor();

      // The site: into its radius, and the arrival at unloading is stamped by itself after the dwell.
      await big('Прибыл на выгрузку').waitFor();
      const reachedSiteAt = Date.now();
      await moveTo(page, cdp, SITE, 0);
      await big('Выгружен').waitFor({ timeout: (DWELL_S + 30) * 1000 });
      expect(Date.now() - reachedSiteAt).toBeGreaterThanOrEqual(DWELL_S * 1000);
      await trip.locator('.drv-trip__step').nth(2).getByText(/^авто · ±12 м · /).waitFor();
      await big('Выгружен').click();
      const last = page.getByRole('dialog', { name: 'Выгружен' });
      await last.getByLabel(/^Выгружено/).fill('20');
      await last.getByRole('checkbox', { name: /^Груз сдан: 20 т/ }).check();
      await last.getByRole('button', { name: 'Отметить' }).click();
      await last.waitFor({ state: 'detached' });
      await trip.getByRole('heading', { name: /Рейс завершён/ }).waitFor();
      expect(await trip.locator('.drv-trip__step--done').count()).toBe(4);
      await big('Прибыл на погрузку').waitFor();

      // On the server: the three automatic stamps are stored as such, the tapped «Выгружен» as a tap.
      const tripReport = async () => await db.selectFrom('reports').select('id').where('trip_uid', 'is not', null).executeTakeFirst();
      await expect.poll(async () => (await tripReport()) !== undefined, { timeout: 30_000, interval: 250 }).toBe(true);
      const reportId = (await tripReport())!.id;
      const sources = async () => {
        const answer = await admin('GET', `/reports/${reportId}`);
        const timeline = (answer.body as { timeline?: Record<string, { source: string; at: string } | null> | null }).timeline ?? {};
        return Object.fromEntries(Object.entries(timeline).map(([step, stamp]) => [step, stamp?.source ?? null]));
      };
      await expect
        .poll(sources, { timeout: 30_000, interval: 500 })
        .toEqual({ loading_arrived: 'auto', loading_departed: 'auto', unloading_arrived: 'auto', unloading_departed: 'tap' });
      // The arrival is stamped at the time the truck entered (the entry's fix), not when the dwell was over.
      const arrivedAt = Date.parse(((await admin('GET', `/reports/${reportId}`)).body as { timeline: { loading_arrived: { at: string } } }).timeline.loading_arrived.at);
      expect(arrivedAt).toBeGreaterThanOrEqual(enteredAt - 1000);
      expect(arrivedAt).toBeLessThanOrEqual(enteredBy + 1000);

      // A late tap corrected: the step goes again as 'corrected', and the timeline says so.
      await trip.getByRole('button', { name: 'Исправить время: Прибыл на погрузку' }).click();
      await trip.getByLabel('Время: Прибыл на погрузку').fill('06:05');
      await trip.getByRole('button', { name: 'Сохранить' }).click();
      await page.getByText('Время исправлено: Прибыл на погрузку в 06:05').waitFor();
      await trip.locator('.drv-trip__step').first().getByText('06:05').waitFor();
      await trip.getByText(/исправлено/).first().waitFor();

      // Trip 1's Т2, signed by the driver's confirmations, made and accepted through the files adapter (issue 33 «End to
      // end»): the cards hold the facts, the shipper's Т1 stands accepted with its УИД (its own flow is
      // tests/server/papers-flow.test.ts); then the card says «принят» with the УИД and the QR code (GET /tasks/assigned/).
      const delivered1 = async () =>
        await db.selectFrom('reports as r').innerJoin('task_drivers as td', 'td.id', 'r.association_id').innerJoin('tasks as t', 't.id', 'td.task_id').select(['r.id', 't.id as task_id', 't.company_id', 't.date']).where('r.trip_uid', 'is not', null).executeTakeFirst();
      await expect.poll(async () => (await delivered1()) !== undefined, { timeout: 30_000, interval: 250 }).toBe(true);
      const report1 = await delivered1();
      if (!report1) throw new Error('trip 1 not on the server');
      const confirmed = await db.selectFrom('trip_confirmations').select(['step', 'remarks']).where('report_id', '=', report1.id).orderBy('step').execute();
      expect(confirmed).toEqual([
        { step: 'loading_departed', remarks: 'Борт кузова помят' },
        { step: 'unloading_departed', remarks: null },
      ]);
      const cards = await carrierCards(suite.app.server, report1.company_id, { shipperEdo: SHIPPER_EDO, carrierEdo: true, placeSuffix: ' (e2e)', plate: ['Х777ХХ77', 'Х777ХХ 77'] });
      await db.updateTable('tasks').set({ shipper_id: cards.shipper, consignee_id: cards.consignee }).where('id', '=', report1.task_id).execute();
      const waybillUid = 'd1e41efa-4cf4-4a1f-ace9-f2bfad05587b';
      const earlier = new Date(Date.now() - 3_600_000).toISOString();
      await db
        .insertInto('etrn_documents')
        .values({ company_id: report1.company_id, report_id: report1.id, title: 't1', direction: 'out', state: 'accepted', trip_date: report1.date, file_name: 'ON_TRNACLGROT_e2e', xml: '<Документ ДатИнфГО="25.11.2026" ВрИнфГО="10:00:00"/>', signature: 'MIIBsignature==', uid: waybillUid, qr: null, created_at: earlier, updated_at: earlier, answered_at: earlier })
        .execute();
      const draft = await admin('POST', '/documents/', { report_id: report1.id, title: 't2' });
      expect(draft.status).toBe(201);
      const t2 = await admin('POST', `/documents/${(draft.body as { id: number }).id}/ready`);
      expect([t2.status, (t2.body as { state: string }).state]).toEqual([200, 'ready']);
      const t2File = (t2.body as { file_name: string }).file_name;
      // A second session of its own (a new login on the same device would end the first).
      const token = await staffToken(url, DEMO.admin, 'e2e-files');
      const exported = await fetch(`${url}/api/documents/export?date=${report1.date}`, { headers: { authorization: `Bearer ${token}` } });
      expect([exported.status, exported.headers.get('x-documents-sent')]).toEqual([200, '1']);
      const frozen = await fetch(`${url}/api/documents/${(draft.body as { id: number }).id}/file.xml`, { headers: { authorization: `Bearer ${token}` } });
      const t2Bytes = new Uint8Array(await frozen.arrayBuffer());
      expect(new TextDecoder('windows-1251').decode(t2Bytes)).toContain('Должн="Водитель"');
      // The title the phone's steps made is valid against the official schema (libxml2), and the trip's paper
      // waybill carries the same trip: the plate and the confirming driver, in Cyrillic.
      expect(schemaErrors('t2', t2Bytes)).toBe('');
      const paper = await fetch(`${url}/api/reports/${report1.id}/waybill.pdf`, { headers: { authorization: `Bearer ${token}` } });
      expect(paper.status).toBe(200);
      const paperText = pdfText(new Uint8Array(await paper.arrayBuffer()));
      const vehicle = await db.selectFrom('users as u').innerJoin('vehicles as v', 'v.id', 'u.vehicle_id').select('v.plate').where('u.email', '=', DEMO.driver).executeTakeFirstOrThrow();
      for (const fact of [vehicle.plate, 'Иван Петров', '20,5 т', 'ООО «ТК Рейс»']) expect(paperText).toContain(fact);
      const answer = Buffer.from(JSON.stringify({ file: t2File, status: 'accepted', uid: waybillUid, qr: `https://epd.example/trn/${waybillUid}` })).toString('base64');
      const answered = await admin('POST', '/documents/answers', { files: [{ name: 't2.json', data: answer }] });
      expect(answered).toMatchObject({ status: 200, body: { outcomes: [{ outcome: 'accepted' }] } });
      await page.reload();
      await current.title.waitFor();
      await waitForEngine(page);
      const waybills = card.getByRole('region', { name: 'Накладные рейсов' });
      const seeWaybill = async () => {
        await waybills.getByText('Накладная (ЭТрН): принят').waitFor();
        await waybills.getByText(waybillUid).waitFor();
        await waybills.getByRole('img', { name: `QR-код накладной ${waybillUid}` }).waitFor();
      };
      await seeWaybill();
      if (shots) await waybills.screenshot({ path: `${shots}/trip-waybill-360.png` });
      expect(await noHorizontalScroll(page)).toBe(true);

      // The second trip with the server and the network gone.
      proxy.setDown(true);
      await context.setOffline(true);
      for (const step of ['Прибыл на погрузку', 'Загружен, выезжаю', 'Прибыл на выгрузку', 'Выгружен']) {
        await big(step).click();
        const factSheet = page.getByRole('dialog', { name: step });
        if (step === 'Загружен, выезжаю' || step === 'Выгружен') {
          await factSheet.getByRole('button', { name: 'Отметить' }).click();
          await factSheet.waitFor({ state: 'detached' });
        }
      }
      await trip.getByRole('heading', { name: /Рейс завершён/ }).waitFor();
      await page.reload();
      await current.title.waitFor();
      await waitForEngine(page);
      await trip.getByRole('heading', { name: /Рейс завершён · рейсов за задачу на телефоне: 2/ }).waitFor();
      expect(await trip.getByText('в очереди').count()).toBeGreaterThan(0);
      // Offline after a reload, the waybill is still on the card: the cached answer, the QR's chunk precached.
      await seeWaybill();

      // Back: every step reaches the server exactly once (the corrected one once more, as its correction).
      proxy.setDown(false);
      await context.setOffline(false);
      const stepPuts = () => proxy.requests.filter((r) => r.method === 'PUT' && /\/api\/trips\/[0-9a-f-]+\/steps\//.test(r.path));
      const delivered = () => {
        const counts = new Map<string, number>();
        for (const r of stepPuts()) if (r.status !== null && r.status < 300) counts.set(r.path, (counts.get(r.path) ?? 0) + 1);
        return counts;
      };
      await expect.poll(() => delivered().size, { timeout: 60_000, interval: 500 }).toBe(8);
      await trip.getByText('в очереди').first().waitFor({ state: 'detached', timeout: 30_000 });
      expect(stepPuts().every((r) => r.status === null || r.status < 400)).toBe(true);
      const counts = [...delivered().entries()];
      // Eight steps once each; only the corrected arrival may have gone twice (when its tap went before the correction).
      const twice = counts.filter(([, n]) => n > 1);
      expect(twice.length).toBeLessThanOrEqual(1);
      for (const [path, n] of twice) expect([path.endsWith('/loading_arrived'), n]).toEqual([true, 2]);

      // The day's end: the receiver signs once for both trips on the touch screen; it goes once, and they read signed.
      const shift = page.getByRole('region', { name: 'Подпись получателя за смену' });
      await shift.getByText('Рейсов без подписи за сегодня: 2', { exact: false }).waitFor();
      expect(await shift.getByText('без подписи', { exact: true }).count()).toBe(2);
      await shift.getByRole('button', { name: 'Подписать рейсы за смену (2)' }).click();
      const signSheet = page.getByRole('dialog', { name: 'Подпись за смену' });
      await signSheet.getByRole('button', { name: 'Сохранить подпись' }).click();
      await signSheet.getByText('Укажите имя получателя').waitFor();
      await signSheet.getByText('Получатель должен расписаться').waitFor();
      await signSheet.getByLabel('Имя получателя').fill('Петров И. С.');
      await signSheet.getByLabel('Должность').fill('мастер участка');
      const pad = signSheet.getByRole('img', { name: /^Поле для подписи/ });
      await pad.scrollIntoViewIfNeeded();
      const box = await pad.boundingBox();
      if (!box) throw new Error('no signature pad');
      await page.mouse.move(box.x + 30, box.y + 60);
      await page.mouse.down();
      await page.mouse.move(box.x + 120, box.y + 110, { steps: 8 });
      await page.mouse.move(box.x + 220, box.y + 50, { steps: 8 });
      await page.mouse.up();
      if (shots) await page.screenshot({ path: `${shots}/shift-acceptance-sheet-360.png` });
      expect(await noHorizontalScroll(page)).toBe(true);
      await signSheet.getByRole('button', { name: 'Сохранить подпись' }).click();
      await signSheet.waitFor({ state: 'detached' });
      await expect.poll(() => shift.getByText('подписано за смену', { exact: true }).count(), { timeout: 30_000, interval: 250 }).toBe(2);
      await shift.getByText('Все рейсы за сегодня подписаны.').waitFor();
      if (shots) await shift.screenshot({ path: `${shots}/shift-acceptance-360.png` });
      const acceptancePosts = proxy.requests.filter((r) => r.method === 'POST' && r.path === '/api/trips/acceptance');
      expect(acceptancePosts.map((r) => r.status)).toEqual([201]);
      const stored = await suite.app.server.db.kysely.selectFrom('trip_acceptances').select(['id', 'scope', 'kind', 'receiver_name', 'signature_key']).execute();
      expect(stored).toMatchObject([{ scope: 'shift', kind: 'signed', receiver_name: 'Петров И. С.' }]);
      expect(stored[0]?.signature_key).toBeTruthy();
      const listed = await suite.app.server.db.kysely.selectFrom('trip_acceptance_trips').select('trip_uid').where('acceptance_id', '=', stored[0]!.id).execute();
      expect(listed).toHaveLength(2);

      await page.setViewportSize({ width: 1440, height: 900 });
      expect(await noHorizontalScroll(page)).toBe(true);
      if (shots) await card.screenshot({ path: `${shots}/trip-card-1440.png` });
      expect(errors).toEqual([]);
    } finally {
      proxy.setDown(false);
      await suite.app.server.db.kysely.updateTable('companies').set({ trip_settings: null }).execute();
      await context.close();
    }
  });
});
