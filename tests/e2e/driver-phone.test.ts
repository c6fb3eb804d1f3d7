/**
 * The driver's phone: under 900 px a driver gets a bottom bar (Задачи, Доступные, Отчёты, Профиль) instead of the
 * hamburger and the drawer, and his task cards are compact — six of them fit in about two screens of a 360×780
 * phone, with «Отчёт» in sight and never under the bar. On a desktop he keeps the sidebar.
 * E2E_SCREENSHOTS=<dir> saves what the phone and the desktop show there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { login } from '../fixtures/accounts.ts';
import { dayFromToday } from '../fixtures/tasks.ts';
import { DEMO, DEMO_PASSWORD, startE2eApp, type E2eApp } from './harness/app.ts';
import { newContext, trackErrors } from './harness/browser.ts';
import { waitFor } from './harness/wait.ts';
import { demoDriverId } from './pages/driver-records.ts';
import { signInAsDriver } from './pages/driver-session.ts';
import { CurrentTasksPage } from './pages/driver-tasks.ts';
import { Shell } from './pages/shell.ts';

const shots = process.env.E2E_SCREENSHOTS;
const PHONE = { width: 360, height: 780 };
/**
 * Six cards in about three screens of a 360×780 phone: two screens (1560 px) before each card led with its trip's
 * big button (issue 32: 64 px and its gap, about 80 px a card) and gained the places' «Как доехать» (issue 31,
 * folded to one 44 px line; unfolded, the addresses, notes and navigator links of both places took 330 px a card).
 */
const SIX_CARDS_MAX = 2400;
const CARGOS = ['Телефон: щебень 5–20', 'Телефон: песок', 'Телефон: ПГС', 'Телефон: грунт', 'Телефон: отсев', 'Телефон: бетон'];

let app: E2eApp;
beforeAll(async () => {
  app = await startE2eApp();
  const driverId = await demoDriverId(app.server);
  const { access_token } = await login(app.server, DEMO.manager, DEMO_PASSWORD);
  // Like the demo's tasks (a quarry to a building site), with the driver's own rate, the dispatcher and a comment.
  for (const cargo of CARGOS) {
    const res = await app.server.app.inject({
      method: 'POST',
      url: '/api/tasks/',
      headers: { authorization: `Bearer ${access_token}` },
      payload: {
        date: dayFromToday(2),
        cargo,
        loading_place: 'Карьер «Лесной»',
        unloading_place: 'ЖК «Северный парк», корп. 5',
        planned_quantity: 40,
        rate: 650,
        comment: 'Въезд через КПП-2, пропуск у охраны.',
        driver_ids: [driverId],
        drivers: [{ id: driverId, transport_rate: 480 }],
      },
    });
    expect(res.statusCode).toBe(201);
  }
});
afterAll(async () => {
  await app?.close();
});

function cardOf(page: Page, cargo: string) {
  return page.locator('main li.drv-card').filter({ has: page.getByRole('heading', { name: cargo, exact: true }) });
}

/** Whether the topmost element at the centre of this box is `selector`'s element or inside it. */
async function onTopAtCentre(page: Page, selector: string, box: { x: number; y: number; width: number; height: number }): Promise<boolean> {
  return page.evaluate(
    ({ selector, x, y }) => {
      const target = document.querySelector(selector);
      const hit = document.elementFromPoint(x, y);
      return Boolean(target && hit && (hit === target || target.contains(hit)));
    },
    { selector, x: box.x + box.width / 2, y: box.y + box.height / 2 },
  );
}

describe('a driver on a phone', () => {
  it('has the bottom bar instead of the menu, compact cards and «Отчёт» in reach', async () => {
    const context = await newContext(app.browser, 'shared', PHONE.width, { serviceWorkers: 'block' });
    try {
      const page = await context.newPage();
      await page.setViewportSize(PHONE);
      const errors = trackErrors(page);
      await signInAsDriver(page, app.url);
      await page.getByRole('heading', { level: 1, name: 'Текущие задачи' }).waitFor();

      const bar = page.getByRole('navigation', { name: 'Разделы водителя' });
      await bar.waitFor();
      const entries = bar.locator('.drv-bar__item');
      expect(await entries.count()).toBe(4);
      expect((await bar.locator('.drv-bar__label').allTextContents()).map((t) => t.trim())).toEqual(['Задачи', 'Доступные', 'Отчёты', 'Профиль']);
      for (const box of await Promise.all((await entries.all()).map((entry) => entry.boundingBox()))) {
        expect(box!.height).toBeGreaterThanOrEqual(48);
      }
      // The bar replaces the hamburger and the drawer.
      expect(await page.getByRole('button', { name: /меню/ }).count()).toBe(0);
      expect(await page.locator('#sidebar').count()).toBe(0);
      const tasksLink = bar.getByRole('link', { name: 'Задачи' });
      expect(await tasksLink.getAttribute('aria-current')).toBe('page');

      for (const cargo of CARGOS) await cardOf(page, cargo).waitFor();
      const heights = await Promise.all(CARGOS.map(async (cargo) => (await cardOf(page, cargo).boundingBox())!.height));
      const total = heights.reduce((sum, h) => sum + h, 0);
      // Printed so a run shows how much room is left under the limit.
      process.stdout.write(`six task cards at 360 px: ${Math.round(total)} px (${heights.map(Math.round).join(', ')})\n`);
      if (shots) await cardOf(page, CARGOS[0]!).screenshot({ path: `${shots}/task-card-360.png` });
      expect(total).toBeLessThanOrEqual(SIX_CARDS_MAX);

      // The first card's «Отчёт» is on the first screen, and nothing (the bar above all) covers it.
      await page.evaluate(() => window.scrollTo(0, 0));
      const report = page.locator('main li.drv-card').first().getByRole('button', { name: 'Внести рейс задним числом', exact: true });
      const box = (await report.boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height).toBeLessThanOrEqual(PHONE.height);
      expect(box.height).toBeGreaterThanOrEqual(44);
      expect(await onTopAtCentre(page, 'main li.drv-card:first-child .drv-card__actions .drv-btn:last-child', box)).toBe(true);
      const barBox = (await bar.boundingBox())!;
      expect(box.y + box.height).toBeLessThanOrEqual(barBox.y);
      if (shots) await page.screenshot({ path: `${shots}/current-tasks-360.png` });

      // The folded parts open from their toggles: the quantities, each explained, and «Мои отчёты».
      const first = cardOf(page, CARGOS[0]!);
      const quantities = first.getByRole('button', { name: /^Количество/ });
      expect(await quantities.getAttribute('aria-expanded')).toBe('false');
      expect(await first.getByRole('button', { name: 'Сохранить количество' }).isVisible()).toBe(false);
      await quantities.click();
      expect(await quantities.getAttribute('aria-expanded')).toBe('true');
      await first.getByRole('button', { name: 'Сохранить количество' }).waitFor();
      await first.getByText('сколько перевезли вы сами').waitFor();
      await first.getByRole('button', { name: /^Мои отчёты/ }).click();
      await first.getByText('Отчётов пока нет.').waitFor();
      if (shots) await first.screenshot({ path: `${shots}/task-card-open-360.png` });
      await quantities.click();
      await first.getByRole('button', { name: /^Мои отчёты/ }).click();

      // Scrolled to the end: the last thing on the page is above the bar, not under it.
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      const save = page.getByRole('button', { name: 'Сохранить часы' });
      await waitFor(async () => {
        const last = await save.boundingBox();
        return last !== null && last.y + last.height <= barBox.y;
      }, { message: 'the last button above the bar' });
      if (shots) await page.screenshot({ path: `${shots}/current-tasks-360-end.png` });

      // «Доступные»: the screen opens and the bar marks it.
      await bar.getByRole('link', { name: 'Доступные' }).click();
      await page.getByRole('heading', { level: 1, name: 'Доступные задачи' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/available-tasks');
      expect(await bar.getByRole('link', { name: 'Доступные' }).getAttribute('aria-current')).toBe('page');
      expect(await tasksLink.getAttribute('aria-current')).toBeNull();
      if (shots) {
        await page.locator('main li.drv-card').first().waitFor();
        await page.screenshot({ path: `${shots}/available-tasks-360.png` });
      }

      // «Отчёты» opens the queue of reports on this device; Статистика and Объявления are a tap away on «Профиль».
      await bar.getByRole('button', { name: /^Отчёты/ }).click();
      const queue = page.getByRole('dialog', { name: 'Очередь отчётов' });
      await queue.waitFor();
      if (shots) await page.screenshot({ path: `${shots}/reports-queue-360.png` });
      await queue.getByRole('button', { name: 'Закрыть' }).first().click();
      await queue.waitFor({ state: 'detached' });
      await bar.getByRole('link', { name: /^Профиль/ }).click();
      await page.getByRole('heading', { level: 1, name: 'Профиль' }).waitFor();
      if (shots) await page.screenshot({ path: `${shots}/profile-360.png` });
      await page.getByRole('navigation', { name: 'Ещё разделы' }).getByRole('link', { name: /^Статистика/ }).click();
      await page.getByRole('heading', { level: 1, name: 'Статистика' }).waitFor();

      // A report queued with the server out of reach: its count is on «Отчёты», in sight on every screen.
      const reportsEntry = bar.getByRole('button', { name: /^Отчёты/ });
      expect(await reportsEntry.locator('.drv-bar__count').count()).toBe(0);
      await bar.getByRole('link', { name: 'Задачи' }).click();
      await cardOf(page, CARGOS[0]!).waitFor();
      app.proxy.setDown(true);
      await context.setOffline(true);
      const form = await new CurrentTasksPage(page, app.url).openReport(CARGOS[0]!);
      await form.fill({ quantity: '20' });
      await form.submit();
      await waitFor(async () => (await reportsEntry.locator('.drv-bar__count').allTextContents()).join() === '1', { message: 'the count on «Отчёты»' });
      expect(await reportsEntry.getAttribute('aria-label')).toBe('Отчёты. Очередь отчётов: не отправлено 1');
      if (shots) await page.screenshot({ path: `${shots}/current-tasks-360-queued.png` });
      expect(errors).toEqual([]);
    } finally {
      app.proxy.setDown(false);
      await context.close();
    }
  });

  it('on a desktop keeps the sidebar and has no bottom bar', async () => {
    const context = await newContext(app.browser, 'shared', 1440, { serviceWorkers: 'block' });
    try {
      const page = await context.newPage();
      await signInAsDriver(page, app.url);
      await cardOf(page, CARGOS[0]!).waitFor();
      const shell = new Shell(page);
      await page.locator('#sidebar').waitFor();
      expect(await page.locator('#sidebar').isVisible()).toBe(true);
      expect(await shell.sidebarLabels()).toContain('Текущие задачи');
      expect(await page.getByRole('navigation', { name: 'Разделы водителя' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: /меню/ }).count()).toBe(1);
      if (shots) await page.screenshot({ path: `${shots}/current-tasks-1440.png` });
    } finally {
      await context.close();
    }
  });
});
