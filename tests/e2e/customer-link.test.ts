/**
 * The customer's link (issue 34 §3, docs/customer-link.md) end to end: the customer opens his link on a phone
 * (360 px), signed out, while a trip is on the road; the driver stamps its unloading with the receiver's signature
 * and the page shows it delivered and signed by itself (it polls every 20 s); the customer disputes another trip;
 * the dispatcher finds the dispute on /reports and answers it on /reports/{id}.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login } from '../fixtures/accounts.ts';
import { encodeForm } from '../fixtures/forms.ts';
import { PNG_8x6 } from '../fixtures/images.ts';
import { makeCounterparty } from '../fixtures/registers.ts';
import { addDriver, createTask, dayFromToday } from '../fixtures/tasks.ts';
import { CLUSTER, DEMO, DEMO_PASSWORD, startE2eApp, type E2eApp } from './harness/app.ts';
import { newContext, trackErrors } from './harness/browser.ts';
import { signIn } from './pages/login-page.ts';
import { waitFor } from './harness/wait.ts';
import { CUSTOMER_PAGE_POLL_MS } from '../../contract/customer-links.ts';

let app: E2eApp;
beforeAll(async () => {
  app = await startE2eApp();
});
afterAll(async () => {
  await app?.close();
});

const minutes = (base: string, n: number) => new Date(Date.parse(base) + n * 60_000).toISOString();

async function inject(email: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
  const { access_token } = await login(app.server, email, DEMO_PASSWORD);
  const res = await app.server.app.inject({ method, url: `/api${url}`, headers: { authorization: `Bearer ${access_token}` }, ...(payload ? { payload } : {}) });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json() as Record<string, unknown>;
}

/** The demo driver on a new task of today for the customer: his association. */
async function assignment(customer: number): Promise<number> {
  const driver = await app.server.db.kysely.selectFrom('users').select(['id', 'company_id']).where('email', '=', DEMO.driver).executeTakeFirstOrThrow();
  const task = await createTask(app.server, driver.company_id as number, { date: dayFromToday(0), cargo: 'Песок речной', status: 'in_progress' });
  await app.server.db.kysely.updateTable('tasks').set({ customer_id: customer }).where('id', '=', task).execute();
  return addDriver(app.server, task, driver.id, { status: 'in_progress' });
}

const step = (uid: string, name: string, body: object) => inject(DEMO.driver, 'PUT', `/trips/${uid}/steps/${name}`, body);

/** The last step with the receiver's signature (multipart, as the phone sends it). */
async function signedUnloading(uid: string, association: number, at: string): Promise<void> {
  const { access_token } = await login(app.server, DEMO.driver, DEMO_PASSWORD);
  const form = new FormData();
  form.append('data', JSON.stringify({ association_id: association, at, unloading_quantity: 18.5, acceptance: { kind: 'signed', receiver_name: 'Прораб Кузнецов' } }));
  form.append('signature', new Blob([PNG_8x6], { type: 'image/png' }), 'signature.png');
  const { payload, headers } = await encodeForm(form);
  const res = await app.server.app.inject({ method: 'PUT', url: `/api/trips/${uid}/steps/unloading_departed`, payload, headers: { ...headers, authorization: `Bearer ${access_token}` } });
  if (res.statusCode !== 201) throw new Error(`unloading: ${res.statusCode} ${res.body}`);
}

describe("the customer's link", () => {
  // The customer opens his link on a phone: the live flow runs at 360 px (its 1440 px layout is the next test's).
  it.each([360])('shows a trip on the road delivered and signed live, takes a dispute the dispatcher answers (%i px)', async (width) => {
    const manager = await app.server.db.kysely.selectFrom('users').select('company_id').where('email', '=', DEMO.manager).executeTakeFirstOrThrow();
    const customer = await makeCounterparty(app.server, manager.company_id as number, { name: `ООО «Стройзаказ ${width}»` });
    const association = await assignment(customer);
    const t0 = new Date(Date.now() - 90 * 60_000).toISOString();

    // Trip 1 finished earlier (to be disputed); trip 2 on the road.
    const done = randomUUID();
    await step(done, 'loading_arrived', { association_id: association, at: t0 });
    await step(done, 'loading_departed', { association_id: association, at: minutes(t0, 10), loading_quantity: 20, ticket_number: `Д-${width}` });
    await step(done, 'unloading_departed', { association_id: association, at: minutes(t0, 40), unloading_quantity: 19 });
    const road = randomUUID();
    await step(road, 'loading_arrived', { association_id: association, at: minutes(t0, 50) });
    await step(road, 'loading_departed', { association_id: association, at: minutes(t0, 60), loading_quantity: 19, ticket_number: `П-${width}` });

    const link = (await inject(DEMO.manager, 'POST', '/customer-links/', { counterparty_id: customer, days: 7 })) as { url: string };
    const context = await newContext(app.browser, 'shared', width, { serviceWorkers: 'block' });
    try {
      const page = await context.newPage();
      const errors = trackErrors(page);
      await page.goto(`${app.url}${link.url}`);
      await page.getByRole('heading', { name: /Стройзаказ/ }).waitFor();
      expect(await page.locator('.header, .sidebar').count()).toBe(0);
      const live = page.locator('section', { has: page.getByRole('heading', { name: /^Сегодня/ }) });
      const roadCard = live.getByRole('listitem', { name: `Рейс П-${width}` });
      await roadCard.waitFor();
      expect(await roadCard.locator('.cust-state').textContent()).toBe('В пути');
      // Nothing of the page runs past the phone's width.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      if (process.env.E2E_SCREENSHOTS) await page.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/customer-link-road-${width}.png`, fullPage: true });

      // The driver arrives and unloads with the receiver's signature: the page shows it by itself on its next poll.
      await step(road, 'unloading_arrived', { association_id: association, at: minutes(t0, 80) });
      await signedUnloading(road, association, minutes(t0, 85));
      await waitFor(async () => (await roadCard.locator('.cust-state').textContent()) === 'Доставлен', { timeout: CUSTOMER_PAGE_POLL_MS + 15_000, message: 'the trip delivered on the page' });
      expect(await roadCard.textContent()).toContain('Принял: Прораб Кузнецов, подписано');
      await waitFor(() => roadCard.getByRole('img', { name: 'Подпись получателя' }).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { message: 'the signature image loads' });
      // Its proof of delivery downloads from the card, through the link.
      const pod = await roadCard.getByRole('link', { name: 'Доставка PDF' }).getAttribute('href');
      expect((await page.request.get(`${app.url}${pod}`)).headers()['content-type']).toBe('application/pdf');

      // The customer disputes the earlier trip.
      const doneCard = live.getByRole('listitem', { name: `Рейс Д-${width}` });
      await doneCard.getByRole('button', { name: 'Оспорить рейс' }).click();
      await doneCard.getByLabel('Что не так с рейсом').fill('Выгрузили 15 т, а не 19 т');
      await doneCard.getByRole('button', { name: 'Отправить перевозчику' }).click();
      await doneCard.getByText('Перевозчик ещё не ответил.').waitFor();
      if (process.env.E2E_SCREENSHOTS) await page.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/customer-link-disputed-${width}.png`, fullPage: true });
      expect(errors).toEqual([]);

      // The dispatcher sees it on /reports and answers on /reports/{id}.
      const staff = await newContext(app.browser, 'shared', 1440);
      try {
        const desk = await signIn(staff, app.url, DEMO.manager, DEMO_PASSWORD);
        await desk.goto(`${app.url}/reports?flag=customer_dispute`);
        const row = desk.getByText('Оспорено заказчиком: Выгрузили 15 т, а не 19 т').first();
        await row.waitFor();
        const reportId = (await app.server.db.kysely.selectFrom('reports').select('id').where('trip_uid', '=', done).executeTakeFirstOrThrow()).id;
        await desk.goto(`${app.url}/reports/${reportId}`);
        const disputes = desk.getByRole('region', { name: 'Оспорено заказчиком' });
        await disputes.getByText('Выгрузили 15 т, а не 19 т').waitFor();
        await disputes.getByLabel('Ответ заказчику').fill('Весы на выгрузке показали 19 т, талон на фото');
        await disputes.getByRole('button', { name: 'Ответить заказчику' }).click();
        // The answer as saved (the form gone, the answer's line in its place), not the text still in the form: the
        // context closes next, and a request still in flight would go with it.
        await disputes.getByLabel('Ответ заказчику').waitFor({ state: 'detached' });
        await disputes.locator('p.muted', { hasText: 'Весы на выгрузке показали 19 т' }).waitFor();
      } finally {
        await staff.close();
      }
      await page.reload();
      // A poll the page had in flight before the reload may answer the reloaded page (identical GETs share one
      // request), so the answer may come with the next poll.
      await page.getByText('Ответ перевозчика:').first().waitFor({ timeout: CUSTOMER_PAGE_POLL_MS + 15_000 });
    } finally {
      await context.close();
    }
  });

  it.each(CLUSTER ? [1440] : [360, 1440])('staff make a link on /counterparties, see its last use and revoke it, asked first: the page then says it no longer works (%i px)', async (width) => {
    const manager = await app.server.db.kysely.selectFrom('users').select('company_id').where('email', '=', DEMO.manager).executeTakeFirstOrThrow();
    const name = `ООО «Ссылка ${width}»`;
    await makeCounterparty(app.server, manager.company_id as number, { name, roles: ['customer'] });
    const staff = await newContext(app.browser, 'shared', width, { serviceWorkers: 'block' });
    // The customer's page at this width too: the only place its desktop layout is opened.
    const customer = await newContext(app.browser, 'shared', width, { serviceWorkers: 'block' });
    try {
      const desk = await signIn(staff, app.url, DEMO.manager, DEMO_PASSWORD);
      const errors = trackErrors(desk);
      await staff.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url });
      await desk.goto(`${app.url}/counterparties?search=${encodeURIComponent(name)}`);
      await desk.getByRole('button', { name: `Ссылка для заказчика: ${name}` }).click();
      const dialog = desk.getByRole('dialog', { name: `Ссылка для заказчика ${name}` });
      await dialog.getByText('Ссылок пока нет.').waitFor();
      await dialog.getByLabel('Действует, дней').fill('14');
      await dialog.getByRole('button', { name: 'Создать ссылку' }).click();
      const shown = dialog.getByRole('textbox', { name: 'Ссылка для заказчика' });
      await shown.waitFor();
      const url = await shown.inputValue();
      expect(url).toMatch(new RegExp(`^${app.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/c/[A-Za-z0-9_-]{43}$`));
      await dialog.getByRole('button', { name: 'Скопировать' }).click();
      await waitFor(async () => (await desk.evaluate(() => navigator.clipboard.readText())) === url, { message: 'the link copied' });
      await dialog.getByText('ещё не открывали').waitFor();
      expect(await desk.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      if (process.env.E2E_SCREENSHOTS) await desk.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/customer-link-dialog-${width}.png` });

      // The customer opens it; the dialog, opened again, shows the last use.
      const phone = await customer.newPage();
      await phone.goto(url);
      await phone.getByRole('heading', { name: new RegExp(`Ссылка ${width}`) }).waitFor();
      await dialog.getByRole('button', { name: 'Закрыть' }).click();
      await desk.getByRole('button', { name: `Ссылка для заказчика: ${name}` }).click();
      // The page asks for its trips and the acts issued to him: either is the last use.
      await dialog.getByText(/Последнее открытие: \d{2}\.\d{2}\.\d{4} \d{2}:\d{2} · (Список рейсов|Акты и счета)/).waitFor();

      // «Отозвать» asks first; «Отмена» keeps it, «Отозвать» revokes it.
      await dialog.getByRole('button', { name: 'Отозвать' }).click();
      const ask = desk.getByRole('dialog', { name: 'Отозвать ссылку?' });
      await ask.getByRole('button', { name: 'Отмена' }).click();
      expect(await dialog.getByText('действует').count()).toBeGreaterThan(0);
      await dialog.getByRole('button', { name: 'Отозвать' }).click();
      await ask.getByRole('button', { name: 'Отозвать' }).click();
      await dialog.getByText(/· отозвана/).waitFor();
      expect(errors).toEqual([]);

      const gone = await phone.goto(url);
      expect(gone?.status()).toBe(410);
      await phone.getByRole('heading', { name: 'Ссылка больше не действует' }).waitFor();
      expect(await phone.textContent('body')).not.toContain(name);
    } finally {
      await staff.close();
      await customer.close();
    }
  });
});
