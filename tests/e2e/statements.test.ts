/**
 * A customer's «Реестр и счета» (issue 34 §2; docs/statements.md) at 360 and 1440 px: the period's statement with
 * its total, «Выставить акт и счёт», the act listed unpaid with its age, marked «Оплачен» with a date; nothing
 * wider than the window; the unpaid act listed under the register (and on /statistics) until it is paid. E2E_SCREENSHOTS=<dir> keeps the pictures.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayFromToday } from '../fixtures/tasks.ts';
import { makeCounterparty } from '../fixtures/registers.ts';
import { makeTrip } from '../fixtures/statements.ts';
import { DEMO, DEMO_PASSWORD, startE2eApp, type E2eApp } from './harness/app.ts';
import { newContext, trackErrors } from './harness/browser.ts';
import { signIn } from './pages/login-page.ts';

const shots = process.env.E2E_SCREENSHOTS;

let app: E2eApp;
beforeAll(async () => {
  app = await startE2eApp();
});
afterAll(async () => {
  await app?.close();
});

describe('statements', () => {
  it('a customer’s statement, act and invoice at 360 and 1440 px', async () => {
    const db = app.server.db.kysely;
    const manager = await db.selectFrom('users').select('company_id').where('email', '=', DEMO.manager).executeTakeFirstOrThrow();
    const companyId = manager.company_id as number;
    const driver = await db.selectFrom('users').select('id').where('company_id', '=', companyId).where('role', '=', 'driver').executeTakeFirstOrThrow();
    for (const width of [360, 1440]) {
      const name = `ООО «Реестр ${width}»`;
      const customer = await makeCounterparty(app.server, companyId, { name, roles: ['customer'] });
      const today = dayFromToday(0);
      await makeTrip(app.server, { companyId, customerId: customer, driverId: driver.id, date: today, quantity: 20, rate: 500 });
      await makeTrip(app.server, { companyId, customerId: customer, driverId: driver.id, date: today, quantity: 12.5, rate: 500 });
      await makeTrip(app.server, { companyId, customerId: customer, driverId: driver.id, date: today, quantity: 7, rate: 500, review: 'pending' });
      const context = await newContext(app.browser, 'shared', width, { serviceWorkers: 'block' });
      const page = await signIn(context, app.url, DEMO.manager, DEMO_PASSWORD);
      const errors = trackErrors(page);

      await page.goto(`${app.url}/counterparties?search=${encodeURIComponent(name)}`);
      await page.getByRole('button', { name: `Реестр и счета заказчика: ${name}` }).click();
      const dialog = page.getByRole('dialog', { name: `Реестр и счета: ${name}` });
      const summary = dialog.locator('.statement-summary');
      await summary.waitFor();
      expect((await summary.textContent())?.replace(/\s/g, ' ')).toContain('2 рейса принято на 16 250 ₽ · на проверке ещё 1');
      await dialog.getByText('Актов пока нет.').waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      if (shots) await page.screenshot({ path: `${shots}/statement-${width}.png` });

      await dialog.getByRole('button', { name: 'Выставить акт и счёт' }).click();
      const row = dialog.locator('.invoice-row').first();
      await row.waitFor();
      expect((await row.textContent())?.replace(/\s/g, ' ')).toContain('Не оплачен · 0 дней');
      expect(await dialog.getByRole('button', { name: 'Выставить акт и счёт' }).isDisabled()).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      if (shots) await page.screenshot({ path: `${shots}/statement-invoice-${width}.png`, fullPage: true });

      // The unpaid act is listed under the register, with its customer and age, until it is paid.
      const invoiceId = await row.getAttribute('data-invoice');
      const unpaid = page.locator(`.unpaid-invoice[data-invoice="${invoiceId}"]`);
      await unpaid.waitFor();
      expect((await unpaid.textContent())?.replace(/\s/g, ' ')).toContain(`${name}16 250 ₽0 дней без оплаты`);
      await dialog.getByRole('button', { name: 'Закрыть' }).click();
      await unpaid.scrollIntoViewIfNeeded();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      if (shots) await page.screenshot({ path: `${shots}/unpaid-${width}.png` });
      if (width === 360) {
        // …and on /statistics, whatever the period, leading back to the customer; the page no wider than the phone.
        await page.goto(`${app.url}/statistics`);
        const onStats = page.locator(`.unpaid-invoice[data-invoice="${invoiceId}"]`);
        await onStats.waitFor();
        expect((await onStats.textContent())?.replace(/\s/g, ' ')).toContain(`${name}16 250 ₽0 дней без оплаты`);
        await page.locator('.staff-table').waitFor();
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        if (shots) await page.screenshot({ path: `${shots}/unpaid-statistics-${width}.png`, fullPage: true });
        await onStats.getByRole('link', { name }).click();
        await page.getByRole('button', { name: `Реестр и счета заказчика: ${name}` }).waitFor();
      }
      await page.getByRole('button', { name: `Реестр и счета заказчика: ${name}` }).click();
      await row.getByRole('button', { name: 'Оплачен' }).click();
      await row.getByText(/^Оплачен \d\d\.\d\d\.\d{4}$/).waitFor();
      await unpaid.waitFor({ state: 'detached' });
      expect(errors).toEqual([]);
      await context.close();
    }
  });
});
