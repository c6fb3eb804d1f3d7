/**
 * /trip-sheets «Путевые листы» (issue 33 §2): a manager at 1440 px writes out a sheet for a vehicle and a driver,
 * records the checks and the departure in its dialog and sees «Не хватает» shrink, has the server's refusal shown
 * with what was typed kept, and downloads the PDF (read back with pdftotext); at 360 px the sheets are cards with
 * nothing wider than the phone; the driver at 360 px records the odometer with a camera photo through the outbox.
 * E2E_SCREENSHOTS=<dir> saves the screens there.
 */
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isoDate } from '../../src/ui/format.ts';
import { makeVehicle } from '../fixtures/registers.ts';
import { DEMO, DEMO_PASSWORD, startE2eApp, type E2eApp } from './harness/app.ts';
import { newContext, trackErrors } from './harness/browser.ts';
import { signIn } from './pages/login-page.ts';
import { cameraPhotos } from './pages/driver-photos.ts';

const shots = process.env.E2E_SCREENSHOTS;
const PLATE = 'М321КТ 77';
const SPARE = 'Т654ОР 77';

let app: E2eApp;
beforeAll(async () => {
  app = await startE2eApp();
});
afterAll(async () => {
  await app?.close();
});

describe('trip sheets', () => {
  it('a manager writes out a sheet, records the checks (what it lacks shrinks), sees a refusal with the typed kept, downloads the PDF; cards at 360 px', async () => {
    const db = app.server.db.kysely;
    const manager = await db.selectFrom('users').select('company_id').where('email', '=', DEMO.manager).executeTakeFirstOrThrow();
    await makeVehicle(app.server, manager.company_id as number, { plate: PLATE });
    await makeVehicle(app.server, manager.company_id as number, { plate: SPARE });
    await db.updateTable('users').set({ license_number: '77 12 345678' }).where('email', '=', DEMO.driver).execute();

    const context = await newContext(app.browser, 'shared', 1440, { serviceWorkers: 'block' });
    const page = await signIn(context, app.url, DEMO.manager, DEMO_PASSWORD);
    const errors = trackErrors(page);
    await page.getByRole('link', { name: 'Путевые листы' }).click();
    await page.getByRole('heading', { level: 1, name: 'Путевые листы' }).waitFor();
    await page.getByText('Сегодня путевых листов нет').waitFor();

    // Written out: the vehicle from the fleet, the driver, today.
    await page.getByRole('button', { name: 'Выписать путевой лист' }).click();
    const create = page.getByRole('dialog', { name: 'Выписать путевой лист' });
    await create.getByLabel('Машина').selectOption({ label: `${PLATE} КАМАЗ 65115` });
    await create.getByLabel('Водитель').selectOption({ label: 'Иван Петров' });
    await create.getByRole('button', { name: 'Выписать' }).click();
    await create.waitFor({ state: 'detached' });
    const row = page.locator('tbody tr').filter({ hasText: PLATE });
    await row.getByText('Не хватает: 7').waitFor();
    expect(await row.textContent()).toContain('Иван Петров');
    // An empty sheet, the year's last: «Удалить» is offered.
    await row.getByRole('button', { name: /^Удалить путевой лист/ }).waitFor();

    // The checks and the departure: what it lacks shrinks to the return and the post-trip check.
    await row.getByRole('button', { name: /^Заполнить/ }).click();
    const record = page.getByRole('dialog', { name: /^Путевой лист № \d+ на / });
    await record.locator('[name="pre_medical_time"]').fill('06:40');
    await record.locator('[name="pre_medical_name"]').fill('Сидорова А. В.');
    await record.locator('[name="pre_technical_time"]').fill('0650');
    await record.locator('[name="pre_technical_name"]').fill('Кузнецов П. И.');
    await record.locator('[name="departure_time"]').fill('07:05');
    await record.locator('[name="odometer_start"]').fill('120 000');
    if (shots) await page.screenshot({ path: `${shots}/trip-sheets-record-1440.png` });
    await record.getByRole('button', { name: 'Сохранить' }).click();
    await record.waitFor({ state: 'detached' });
    await row.getByText('Не хватает: 3').waitFor();
    expect(await row.textContent()).toContain('✓ Медосмотр 06:40, Сидорова А. В.');
    expect(await row.textContent()).toContain('✓ Техосмотр 06:50, Кузнецов П. И.');
    // Filled now: no longer deletable.
    expect(await row.getByRole('button', { name: /^Удалить путевой лист/ }).count()).toBe(0);

    // The server refuses an end reading below the start one: its words shown, what was typed kept.
    await row.getByRole('button', { name: /^Заполнить/ }).click();
    await record.locator('[name="return_time"]').fill('18:10');
    await record.locator('[name="odometer_end"]').fill('119000');
    await record.getByRole('button', { name: 'Сохранить' }).click();
    await record.getByRole('alert').getByText(/меньше, чем при выезде \(120000 км\)/).waitFor();
    expect(await record.locator('[name="return_time"]').inputValue()).toBe('18:10');
    await record.locator('[name="odometer_end"]').fill('120412');
    await record.getByRole('button', { name: 'Сохранить' }).click();
    await record.waitFor({ state: 'detached' });
    await row.getByText('Не хватает: 1').waitFor();
    expect(await row.textContent()).toContain('Пробег 412 км');
    if (shots) await page.screenshot({ path: `${shots}/trip-sheets-1440.png`, fullPage: true });

    // The same vehicle's day again: the server's 409 in the dialog, the choices kept.
    await page.getByRole('button', { name: 'Выписать путевой лист' }).click();
    await create.getByLabel('Машина').selectOption({ label: `${PLATE} КАМАЗ 65115` });
    await create.getByLabel('Водитель').selectOption({ label: 'Иван Петров' });
    await create.getByRole('button', { name: 'Выписать' }).click();
    await create.getByRole('alert').getByText(/^У этой машины на \d\d\.\d\d\.\d{4} уже есть путевой лист № \d+$/).waitFor();
    expect(await create.getByLabel('Водитель').locator('option:checked').textContent()).toBe('Иван Петров');
    await create.getByRole('button', { name: 'Отмена' }).click();
    await create.waitFor({ state: 'detached' });

    // A sheet written out by mistake: empty and the year's last, deleted once confirmed; the first one is never offered.
    await page.getByRole('button', { name: 'Выписать путевой лист' }).click();
    await create.getByLabel('Машина').selectOption({ label: `${SPARE} КАМАЗ 65115` });
    await create.getByLabel('Водитель').selectOption({ label: 'Иван Петров' });
    await create.getByRole('button', { name: 'Выписать' }).click();
    await create.waitFor({ state: 'detached' });
    const spare = page.locator('tbody tr').filter({ hasText: SPARE });
    await spare.getByRole('button', { name: /^Удалить путевой лист/ }).click();
    const ask = page.getByRole('dialog', { name: /^Удалить путевой лист № \d+\?$/ });
    await ask.getByRole('button', { name: 'Удалить' }).click();
    await spare.waitFor({ state: 'detached' });
    expect(await db.selectFrom('trip_sheets').select('id').execute()).toHaveLength(1);

    // Search: by the plate as typed in Latin look-alikes; a plate not there leaves the empty state.
    await page.getByPlaceholder('Госномер или водитель').fill('m321');
    await row.waitFor();
    await page.getByPlaceholder('Госномер или водитель').fill('Х999');
    await page.getByText(/^По этому поиску путевых листов на .* нет\.$/).waitFor();
    await page.getByPlaceholder('Госномер или водитель').fill('');
    await row.waitFor();

    // The PDF: the number, the plate, the driver, the medic, the mechanic, the readings, in Cyrillic.
    const sheet = await db.selectFrom('trip_sheets').select(['id', 'number']).where('date', '=', isoDate(new Date())).executeTakeFirstOrThrow();
    const downloading = page.waitForEvent('download', { timeout: 30_000 });
    await row.getByRole('button', { name: /^Скачать PDF/ }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`Путевой лист № ${sheet.number}.pdf`);
    const text = execFileSync('pdftotext', ['-enc', 'UTF-8', await download.path(), '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
    for (const fact of [`ПУТЕВОЙ ЛИСТ № ${sheet.number}`, PLATE, 'Иван Петров', 'Сидорова А. В.', 'Кузнецов П. И.', '120 000 км', '120 412 км', '412 км']) expect(text, fact).toContain(fact);
    expect(errors).toEqual([]);
    await context.close();

    // A phone: cards, nothing wider than the window, the record dialog fits.
    const phone = await newContext(app.browser, 'shared', 360, { serviceWorkers: 'block' });
    const small = await signIn(phone, app.url, DEMO.manager, DEMO_PASSWORD);
    await small.goto(`${app.url}/trip-sheets`);
    const card = small.locator('.account-card').filter({ hasText: PLATE });
    await card.waitFor();
    expect(await card.textContent()).toContain('Не хватает: 1');
    expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    if (shots) await small.screenshot({ path: `${shots}/trip-sheets-360.png`, fullPage: true });
    await card.getByRole('button', { name: /^Заполнить/ }).click();
    const phoneRecord = small.getByRole('dialog', { name: /^Путевой лист № / });
    await phoneRecord.waitFor();
    expect(await phoneRecord.locator('[name="odometer_end"]').inputValue()).toBe('120412');
    expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    if (shots) await small.screenshot({ path: `${shots}/trip-sheets-record-360.png` });
    await small.keyboard.press('Escape');
    await phone.close();
  });

  it('the driver at 360 px records the odometer at departure with the dashboard’s photo through the outbox: shown at once, kept after a reload, stored once with its photo', async () => {
    const db = app.server.db.kysely;
    // The sheet the manager wrote out above is the driver's of today; its readings cleared for the phone to record.
    const sheet = await db.selectFrom('trip_sheets').select(['id', 'number']).where('date', '=', isoDate(new Date())).executeTakeFirstOrThrow();
    // The checks made just before now: the manager's 06:40 was after a departure recorded between midnight and 06:40,
    // which the server rightly refused («предрейсовый медосмотр позже выезда») — CI ran then.
    const justBefore = new Date(Date.now() - 10 * 60_000).toISOString();
    await db
      .updateTable('trip_sheets')
      .set({ odometer_start: null, odometer_end: null, departure_at: null, return_at: null, pre_medical_at: justBefore, pre_technical_at: justBefore, post_medical_at: null, post_medical_name: null })
      .where('id', '=', sheet.id)
      .execute();
    const [photo] = await cameraPhotos(app.browser, 1);

    const phone = await newContext(app.browser, 'shared', 360);
    const page = await signIn(phone, app.url, DEMO.driver, DEMO_PASSWORD);
    const errors = trackErrors(page);
    const card = page.getByRole('region', { name: `Путевой лист № ${sheet.number} · ${PLATE}` });
    await page.goto(`${app.url}/current-tasks`);
    await card.waitFor();
    await card.getByRole('button', { name: 'Записать выезд' }).click();
    await card.getByText('Введите показание одометра, км').waitFor();
    await card.getByLabel('Одометр, км (выезд)').fill('120 500');
    await card.getByLabel('Фото приборной панели').setInputFiles(photo ? [photo] : []);
    await card.getByRole('button', { name: 'Записать выезд' }).click();
    await card.getByText(/Выезд: 120\s500 км/).waitFor();
    await card.getByLabel('Одометр, км (возвращение)').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    if (shots) await page.screenshot({ path: `${shots}/odometer-360.png`, fullPage: true });

    await expect.poll(async () => (await db.selectFrom('trip_sheets').select(['odometer_start', 'odometer_start_photo']).where('id', '=', sheet.id).executeTakeFirstOrThrow()), { timeout: 20_000 }).toMatchObject({ odometer_start: 120_500, odometer_start_photo: expect.any(String) });
    await page.reload();
    await page.getByRole('region', { name: `Путевой лист № ${sheet.number} · ${PLATE}` }).getByText(/Выезд: 120\s500 км/).waitFor();
    expect(errors).toEqual([]);
    await phone.close();
  });
});
