/**
 * The registers in the task (issue 31): a counterparty's card refuses a wrong ИНН under the field and keeps what was
 * typed; a manager creates a task picking the customer by ИНН and a loading place created in place with a pasted
 * Yandex Maps link (the service shown as recognised); the driver on a 360 px phone sees the place's address, note
 * and navigator links; a place's card shows its point and radius on the small map (tiles served here) and a click
 * there sets the card's coordinates; each register opened first in the tab has its badges styled and its card's fields
 * level. E2E_SCREENSHOTS=<dir> saves the new screens at 360 and 1440 px there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayFromToday } from '../fixtures/tasks.ts';
import { DEMO, DEMO_PASSWORD, startE2eApp, type E2eApp } from './harness/app.ts';
import { newContext, trackErrors } from './harness/browser.ts';
import { waitFor } from './harness/wait.ts';
import { signIn } from './pages/login-page.ts';
import { signInAsDriver } from './pages/driver-session.ts';
import { CardDialog, placeGuide, RegisterPicker } from './pages/registers-page.ts';
import { PNG_8x6 } from '../fixtures/images.ts';

const shots = process.env.E2E_SCREENSHOTS;
const INN = '7707083893';
const CARGO = 'Щебень: реестры e2e';
const PLACE = 'Карьер Гранит e2e';
const YANDEX_LINK = 'https://yandex.ru/maps/?ll=37.617300%2C55.755800&pt=37.6173,55.7558&z=16';
const NOTE = 'Код ворот 1234, въезд с северной стороны';
/** The map's tiles (MAP_TILE_URL): another origin on the loopback, nothing listens there; page.route serves them. */
const TILES = 'http://127.0.0.1:9';

/** Web Mercator at a zoom: a point to world pixels and back, as Leaflet's default CRS draws it. */
function mercator(zoom: number) {
  const size = 256 * 2 ** zoom;
  return {
    toPixels: (lat: number, lon: number) => ({
      x: ((lon + 180) / 360) * size,
      y: ((1 - Math.log(Math.tan((lat * Math.PI) / 180) + 1 / Math.cos((lat * Math.PI) / 180)) / Math.PI) / 2) * size,
    }),
    toPoint: (x: number, y: number) => ({ lat: (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / size))) * 180) / Math.PI, lon: (x / size) * 360 - 180 }),
  };
}

let app: E2eApp;
beforeAll(async () => {
  app = await startE2eApp({ mapTileUrl: `${TILES}/{z}/{x}/{y}.png` });
});
afterAll(async () => {
  await app?.close();
});

/** A place of the demo manager's company, straight into the database. */
async function insertPlace(name: string, values: { lat?: number; lon?: number; radius_m: number; archived_at?: string }): Promise<number> {
  const db = app.server.db.kysely;
  const company = (await db.selectFrom('companies').select('id').where('name', '=', 'ООО «СеверТранс»').executeTakeFirstOrThrow()).id;
  const now = new Date().toISOString();
  const row = { company_id: company, name, name_key: name.toLowerCase(), created_at: now, updated_at: now, ...values };
  return (await db.insertInto('places').values(row).returning('id').executeTakeFirstOrThrow()).id;
}

describe('registers in a task', () => {
  it('a manager makes a customer, then a task picking it by ИНН and a place created in place from a Yandex link; the driver sees how to get there', async () => {
    const context = await newContext(app.browser, 'shared', 1440, { serviceWorkers: 'block' });
    const page = await signIn(context, app.url, DEMO.manager, DEMO_PASSWORD);
    const errors = trackErrors(page);

    // The customer's card: a wrong check digit is refused under ИНН, the name typed stays.
    await page.goto(`${app.url}/counterparties`);
    await page.getByRole('button', { name: 'Добавить контрагента' }).click();
    const card = new CardDialog(page, 'Новый контрагент');
    await card.field('Название').fill('ООО «Заказчик e2e»');
    await card.field('ИНН').fill('7707083894');
    await card.submit('Создать');
    await waitFor(async () => (await card.noteUnder('ИНН')) === 'Неверная контрольная цифра', { message: 'the ИНН refusal under its field' });
    expect(await card.field('Название').inputValue()).toBe('ООО «Заказчик e2e»');
    await card.field('ИНН').fill(INN);
    await card.submit('Создать');
    await page.getByRole('cell', { name: 'ООО «Заказчик e2e»', exact: true }).waitFor();

    // The task: the customer found by its ИНН, the loading place created in place.
    await page.goto(`${app.url}/tasks/create`);
    const customer = new RegisterPicker(page, 'Заказчик');
    await customer.type(INN);
    await customer.choose(/ООО «Заказчик e2e»/);
    expect(await customer.input.inputValue()).toBe('ООО «Заказчик e2e»');
    await page.locator('[name="cargo"]').fill(CARGO);

    const loading = new RegisterPicker(page, 'Место погрузки');
    await loading.type(PLACE);
    await loading.choose(`Создать место «${PLACE}»…`);
    const placeCard = new CardDialog(page, 'Новое место');
    expect(await placeCard.field('Название').inputValue()).toBe(PLACE);
    await placeCard.field('Адрес').fill('Московская обл., Раменский р-н, д. Гжель');
    await placeCard.field('Координаты').fill(YANDEX_LINK);
    await waitFor(async () => (await placeCard.noteUnder('Координаты')).includes('Яндекс Карты: 55.755800, 37.617300'), { message: 'the Yandex link recognised' });
    await placeCard.field('Заметка для водителя').fill(NOTE);
    await placeCard.submit('Создать');
    await placeCard.dialog.waitFor({ state: 'detached' });
    expect(await loading.input.inputValue()).toBe(PLACE);

    await page.getByRole('combobox', { name: 'Место выгрузки', exact: true }).fill('ЖК «Северный» e2e');
    await page.locator('[name="planned_quantity"]').fill('40');
    await page.locator('[name="date"]').fill(dayFromToday(0).split('-').reverse().join('.'));
    await page.getByLabel('Добавить водителя').fill('Иван');
    await page.getByRole('button', { name: /Иван Петров/ }).click();
    await page.getByRole('button', { name: 'Создать', exact: true }).click();
    await waitFor(() => new URL(page.url()).pathname === '/tasks/manage', { message: 'the task is created' });

    const db = app.server.db.kysely;
    const task = await db.selectFrom('tasks').selectAll().where('cargo', '=', CARGO).executeTakeFirstOrThrow();
    const customerRow = await db.selectFrom('counterparties').selectAll().where('inn', '=', INN).executeTakeFirstOrThrow();
    const place = await db.selectFrom('places').selectAll().where('name', '=', PLACE).executeTakeFirstOrThrow();
    expect(task).toMatchObject({ customer_id: customerRow.id, loading_place_id: place.id, loading_place: PLACE });
    expect(place).toMatchObject({ lat: 55.7558, lon: 37.6173, driver_note: NOTE, radius_m: 150 });
    expect(errors).toEqual([]);
    await context.close();

    // The driver on a phone: the address, the note, the navigator links by the point.
    const phone = await newContext(app.browser, 'shared', 360, { serviceWorkers: 'block' });
    const driverPage = await phone.newPage();
    await signInAsDriver(driverPage, app.url);
    const taskCard = driverPage.locator('main li.drv-card').filter({ has: driverPage.getByRole('heading', { name: CARGO, exact: true }) });
    await taskCard.waitFor();
    const guide = placeGuide(taskCard, 'Погрузка');
    await guide.open();
    await guide.guide.waitFor();
    expect(await guide.guide.textContent()).toContain('Московская обл., Раменский р-н, д. Гжель');
    expect(await guide.guide.textContent()).toContain(NOTE);
    expect(await guide.link('Навигатор').getAttribute('href')).toBe('yandexnavi://build_route_on_map?lat_to=55.7558&lon_to=37.6173');
    expect(await guide.link('Яндекс Карты').getAttribute('href')).toBe('https://yandex.ru/maps/?rtext=~55.7558,37.6173&rtt=auto');
    expect(await guide.link('Google Maps').getAttribute('href')).toBe('https://www.google.com/maps/dir/?api=1&destination=55.7558,37.6173');
    expect(await guide.link('Другая карта').getAttribute('href')).toBe('geo:55.7558,37.6173?q=55.7558,37.6173');
    // Nothing wider than the phone.
    expect(await driverPage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    if (shots) await taskCard.screenshot({ path: `${shots}/driver-place-guide-360.png` });
    await phone.close();
  });

  it('«Архив» lists an archived place and «Восстановить» brings it back into use', async () => {
    const name = 'Склад архивный e2e';
    const id = await insertPlace(name, { radius_m: 150, archived_at: new Date().toISOString() });
    const context = await newContext(app.browser, 'shared', 1440, { serviceWorkers: 'block' });
    const page = await signIn(context, app.url, DEMO.manager, DEMO_PASSWORD);
    const errors = trackErrors(page);
    await page.goto(`${app.url}/places`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.getByText(name).count()).toBe(0);
    await page.getByLabel('Показать').selectOption({ label: 'Архив' });
    await page.getByRole('button', { name: `Восстановить место: ${name}` }).click();
    await page.getByText(`Место «${name}» восстановлено из архива`).waitFor();
    await waitFor(async () => (await app.server.db.kysely.selectFrom('places').select('archived_at').where('id', '=', id).executeTakeFirstOrThrow()).archived_at === null, {
      message: 'the place is in use again',
    });
    await page.getByLabel('Показать').selectOption({ label: 'Действующие' });
    await page.getByText(name).first().waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a place’s card shows its point and radius on the map; «Я здесь» takes the device’s position with its accuracy; a click on the map moves the point into the card’s coordinates, saved with «Сохранить»', async () => {
    const name = 'Склад на карте e2e';
    const id = await insertPlace(name, { lat: 55.7558, lon: 37.6173, radius_m: 300 });
    const context = await newContext(app.browser, 'shared', 1440, { serviceWorkers: 'block' });
    const tiles: string[] = [];
    await context.route(`${TILES}/**`, (route) => {
      tiles.push(new URL(route.request().url()).pathname);
      return route.fulfill({ status: 200, contentType: 'image/png', body: PNG_8x6 });
    });
    const page = await signIn(context, app.url, DEMO.manager, DEMO_PASSWORD);
    const errors = trackErrors(page);
    await page.goto(`${app.url}/places?search=${encodeURIComponent(name)}`);
    await page.getByRole('button', { name: `Изменить место: ${name}` }).click();
    const card = new CardDialog(page, `Место «${name}»`);
    const box = card.dialog.locator('.place-map-box');
    await card.dialog.locator('.place-map--ready .leaflet-tile-loaded').first().waitFor();
    // The view is around the point at zoom 16: the tiles asked for are the point's.
    const zoom = 16;
    const web = mercator(zoom);
    const at = web.toPixels(55.7558, 37.6173);
    expect(tiles).toContain(`/${zoom}/${Math.floor(at.x / 256)}/${Math.floor(at.y / 256)}.png`);

    // The marker stands at the point (the map's centre) with the radius's circle around it.
    const centreOf = async (locator: typeof box) => {
      const r = (await locator.boundingBox())!;
      return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
    };
    const mapCentre = await centreOf(box);
    const pin = card.dialog.locator('.place-map-pin');
    const pinAt = await centreOf(pin);
    expect(Math.abs(pinAt.x - mapCentre.x)).toBeLessThanOrEqual(1.5);
    expect(Math.abs(pinAt.y - mapCentre.y)).toBeLessThanOrEqual(1.5);
    const circle = (await card.dialog.locator('.leaflet-overlay-pane path').boundingBox())!;
    const metresPerPixel = (2 * Math.PI * 6378137 * Math.cos((55.7558 * Math.PI) / 180)) / (256 * 2 ** zoom);
    expect(Math.abs(circle.width / 2 - 300 / metresPerPixel)).toBeLessThanOrEqual(3);
    if (shots) await card.dialog.screenshot({ path: `${shots}/place-map-1440.png` });

    // «Я здесь»: the device's position becomes the card's coordinates, its accuracy shown.
    await context.grantPermissions(['geolocation'], { origin: app.url });
    await context.setGeolocation({ latitude: 55.756012, longitude: 37.617912, accuracy: 12.4 });
    await card.dialog.getByRole('button', { name: 'Я здесь', exact: true }).click();
    await card.dialog.getByText('Точность ± 12 м').waitFor();
    expect(await card.field('Координаты').inputValue()).toBe('55.756012, 37.617912');

    // A click 120 px right of and 60 px above the point: the card's coordinates are that spot's, the marker follows.
    // (The position was inside the view, so the map did not move: the click's spot is still read from the first point.)
    await page.mouse.click(mapCentre.x + 120, mapCentre.y - 60);
    const expected = web.toPoint(at.x + 120, at.y - 60);
    await waitFor(async () => (await card.field('Координаты').inputValue()) !== '55.756012, 37.617912', { message: 'the click sets the coordinates' });
    const [lat, lon] = (await card.field('Координаты').inputValue()).split(',').map(Number) as [number, number];
    expect(Math.abs(lat - expected.lat)).toBeLessThan(5e-5);
    expect(Math.abs(lon - expected.lon)).toBeLessThan(5e-5);
    expect(await card.noteUnder('Координаты')).toContain('введённые координаты');
    const moved = await centreOf(pin);
    expect(Math.abs(moved.x - (mapCentre.x + 120))).toBeLessThanOrEqual(1.5);
    expect(Math.abs(moved.y - (mapCentre.y - 60))).toBeLessThanOrEqual(1.5);
    const stored = () => app.server.db.kysely.selectFrom('places').select(['lat', 'lon']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(await stored()).toEqual({ lat: 55.7558, lon: 37.6173 });

    await card.submit('Сохранить');
    await card.dialog.waitFor({ state: 'detached' });
    expect(await stored()).toEqual({ lat, lon });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the registers at 360 and 1440 px: each screen and its card open with nothing wider than the window, the badges styled, the card’s fields level', async () => {
    for (const width of [360, 1440]) {
      const context = await newContext(app.browser, 'shared', width, { serviceWorkers: 'block' });
      const page = await signIn(context, app.url, DEMO.admin, DEMO_PASSWORD);
      for (const path of ['/counterparties', '/places', '/vehicles']) {
        await page.goto(`${app.url}${path}`);
        await page.getByRole('heading', { level: 1 }).waitFor();
        await waitFor(async () => (await page.locator('[aria-busy="true"], .state-loading').count()) === 0, { message: `${path} loaded` });
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        if (shots) await page.screenshot({ path: `${shots}${path}-${width}.png`, fullPage: true });
        if (path === '/vehicles') {
          // A register opened first in the tab styles its badge (status-badge.css came only with other screens' chunks).
          const badge = page.locator('.status-badge').first();
          expect(await badge.evaluate((e) => [getComputedStyle(e).whiteSpace, getComputedStyle(e).borderRadius])).toEqual(['nowrap', '999px']);
        }
        // A plate, a phone, «ИНН …» never break inside (a wrapped inline box has two rects): «А123ВС / 77» was.
        const broken = await page.locator('.register-plate-text, .register-nowrap').evaluateAll((all) => all.filter((e) => e.getClientRects().length > 1).map((e) => e.textContent));
        expect(broken).toEqual([]);
        await page.getByRole('button', { name: /^Добавить/ }).first().click();
        await page.getByRole('dialog').waitFor();
        if (path === '/counterparties' && width > 600) {
          // Side by side, a field beside one with a hint keeps its input level with the other's (no stretched gap).
          const [full, inn] = await Promise.all(['Полное наименование', 'ИНН'].map((label) => new CardDialog(page, 'Новый контрагент').field(label).boundingBox()));
          expect(Math.abs(full!.y - inn!.y)).toBeLessThanOrEqual(1);
        }
        if (shots) await page.screenshot({ path: `${shots}${path}-card-${width}.png` });
        await page.keyboard.press('Escape');
      }
      await context.close();
    }
  });
});
