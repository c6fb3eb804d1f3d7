/**
 * A working day through the real UI (issue 30, «Done means»): a dispatcher at 1440 px makes today's task from a
 * template (each driver's share and own rate kept), moves it on /dispatch by keyboard alone (arrows choose in
 * «Назначить водителю», Enter assigns; Alt+→ hands one driver's part to the next column, the focus on the card);
 * the driver at 360 px files three trips, the second with the server cut, delivered once when it is back («Отчёт
 * отправлен»); the dispatcher disputes the third; the driver finds it at the top of /current-tasks with the reason
 * and corrects it in one tap; the dispatcher approves the clean ones at once, /payroll right after shows the fresh
 * figures, and the month is closed through its dialog with them. The kopecks agree: /payroll's total is Σ the
 * month's approved loads (each of today's at the driver's own rate) and the adjustments, and the close stores it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { PayrollItems, PayrollMonth, WageItem } from '../../contract/money.ts';
import { monthLabel, monthOf } from '../../contract/money.ts';
import type { Board } from '../../contract/calls/dispatch.ts';
import { call, login, makeUser } from '../fixtures/accounts.ts';
import { dayFromToday } from '../fixtures/tasks.ts';
import { DEMO, DEMO_PASSWORD, startE2eApp, type E2eApp } from './harness/app.ts';
import { newContext, trackErrors } from './harness/browser.ts';
import { waitFor } from './harness/wait.ts';
import { signIn } from './pages/login-page.ts';
import { demoDriverId, reportsOn } from './pages/driver-records.ts';
import { OutboxView } from './pages/driver-outbox.ts';
import { signInAsDriver } from './pages/driver-session.ts';
import { CurrentTasksPage } from './pages/driver-tasks.ts';
import { Shell } from './pages/shell.ts';
import { kopecksOf, PayrollPage, ReviewQueue } from './pages/staff-review.ts';

const CARGO = 'Рабочий день: щебень 20–40';
const TEMPLATE = 'Рабочий день: Карьер «Лесной» → ЖК «Северный парк»';
const REASON = 'На талоне 11,5 т, а в отчёте 12,5 т';
const SHARES = { moved: { share: 35, rate: 480 }, other: { share: 25, rate: 460 } };

let app: E2eApp;
beforeAll(async () => {
  app = await startE2eApp();
});
afterAll(async () => {
  await app?.close();
});

/** Open a screen as a menu click does (no reload: the screen's cached answers stay, as in the app). */
async function navigate(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    history.pushState(null, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

describe('a working day', () => {
  it('template → board by keyboard → three trips (one offline) → dispute corrected → approve-clean → payroll fresh → month closed', async () => {
    const { server, proxy, browser, url } = app;
    const db = server.db.kysely;
    const today = dayFromToday(0);
    const month = monthOf(today);
    const managerToken = (await login(server, DEMO.manager, DEMO_PASSWORD)).access_token;
    const adminToken = (await login(server, DEMO.admin, DEMO_PASSWORD)).access_token;
    const board = async () => (await call<Board>(server, 'GET', `/api/dispatch/board?date=${today}`, { token: managerToken })).body;
    const payroll = async () => (await call<PayrollMonth>(server, 'GET', `/api/payroll/?month=${month}`, { token: adminToken })).body;
    // A month's loads, each with its driver: the month answers totals, a driver's loads come on demand.
    const payrollItems = async (m: PayrollMonth) => {
      const all: (WageItem & { driver_id: number })[] = [];
      for (const d of m.drivers) {
        const page = (await call<PayrollItems>(server, 'GET', `/api/payroll/items?month=${month}&driver_id=${d.driver_id}`, { token: adminToken })).body;
        all.push(...page.items.map((i) => ({ ...i, driver_id: d.driver_id })));
      }
      return all;
    };
    const petrovId = await demoDriverId(server);
    // Trips here follow each other within seconds; a truck's cycle is minutes: the minimum cycle is off for the day.
    const company = (await db.selectFrom('users').select('company_id').where('id', '=', petrovId).executeTakeFirstOrThrow()).company_id!;
    await db.updateTable('companies').set({ check_thresholds: JSON.stringify({ min_cycle_minutes: 0 }) }).where('id', '=', company).execute();

    // A fourth driver (last by name: the last column), for the bar to assign.
    await makeUser(server, 'driver', company, { name: 'Яков Юдин' });
    // The board's columns: the template's first driver stands just left of Петров, so Alt+→ hands his part over.
    const columns = (await board()).drivers;
    const petrovAt = columns.findIndex((d) => d.id === petrovId);
    expect(petrovAt).toBeGreaterThan(0);
    const moved = columns[petrovAt - 1]!;
    const [other, third] = columns.filter((d) => d.id !== petrovId && d.id !== moved.id) as [Board['drivers'][0], Board['drivers'][0]];
    expect(third).toBeDefined();
    const template = await call(server, 'POST', '/api/tasks/templates', {
      token: managerToken,
      body: {
        name: TEMPLATE,
        fields: {
          cargo: CARGO,
          loading_place: 'Карьер «Лесной»',
          unloading_place: 'ЖК «Северный парк»',
          planned_quantity: 60,
          rate: 650,
          driver_ids: [moved.id, other.id],
          drivers: [
            { id: moved.id, planned_quantity: SHARES.moved.share, transport_rate: SHARES.moved.rate },
            { id: other.id, planned_quantity: SHARES.other.share, transport_rate: SHARES.other.rate },
          ],
        },
      },
    });
    expect(template.status).toBe(201);

    const deskContext = await newContext(browser, 'shared', 1440, { serviceWorkers: 'block' });
    const phoneContext = await newContext(browser, 'shared', 360, { serviceWorkers: 'block' });
    try {
      // 1. The dispatcher: today's task from the template, the drivers' shares and rates as saved.
      const desk = await signIn(deskContext, url, DEMO.admin, DEMO_PASSWORD);
      const deskErrors = trackErrors(desk);
      await navigate(desk, '/tasks/create');
      const field = (name: string) => desk.locator(`[name="${name}"]`);
      // Chosen at once: «Создать из шаблона» opens only once the company's drivers are known (before, a template
      // kept none of its drivers); the choice waits for it.
      await desk.getByLabel('Создать из шаблона').selectOption({ label: TEMPLATE });
      await waitFor(async () => (await field('cargo').inputValue()) === CARGO, { message: 'the template applied' });
      expect(await field(`drivers.${moved.id}.planned_quantity`).inputValue()).toBe(String(SHARES.moved.share));
      expect(await field(`drivers.${moved.id}.transport_rate`).inputValue()).toBe(String(SHARES.moved.rate));
      expect(await field(`drivers.${other.id}.planned_quantity`).inputValue()).toBe(String(SHARES.other.share));
      expect(await field(`drivers.${other.id}.transport_rate`).inputValue()).toBe(String(SHARES.other.rate));
      await field('date').fill(today.split('-').reverse().join('.'));
      await desk.getByRole('button', { name: 'Создать', exact: true }).click();
      const task = await waitFor(() => db.selectFrom('tasks').select('id').where('cargo', '=', CARGO).executeTakeFirst(), { message: 'the task stored' });
      // The form goes to /tasks/manage once created: wait for it, or it would follow the next navigation.
      await waitFor(() => new Shell(desk).path() === '/tasks/manage', { message: 'the form done' });
      const taskId = Number(task.id);
      const parts = await db.selectFrom('task_drivers').select(['driver_id', 'planned_quantity', 'transport_rate']).where('task_id', '=', taskId).orderBy('driver_id').execute();
      expect(parts.map((p) => [p.driver_id, p.planned_quantity, p.transport_rate])).toEqual(
        [
          [moved.id, SHARES.moved.share, SHARES.moved.rate],
          [other.id, SHARES.other.share, SHARES.other.rate],
        ].sort((a, b) => a[0]! - b[0]!),
      );

      // 2. The board, keyboard alone. Space selects the card; arrows only choose the driver; Enter assigns.
      await navigate(desk, '/dispatch');
      const column = (name: string) => desk.getByRole('region', { name: `Колонка: ${name}` });
      const card = (name: string) => column(name).locator(`[data-task-id="${taskId}"]`);
      await card(other.name).focus();
      await desk.keyboard.press('Space');
      const bar = desk.getByRole('toolbar', { name: 'Выбранные задачи' });
      await bar.getByText('Выбрано: 1 задача').waitFor();
      const choose = bar.getByLabel('Назначить водителю');
      await choose.focus();
      for (let step = 0; step < columns.length + 1 && (await choose.inputValue()) !== String(third.id); step++) {
        await desk.keyboard.press('ArrowDown');
        // An arrow never assigns: the task keeps its two drivers while the choice moves.
        expect((await board()).drivers.find((d) => d.id === third.id)?.task_ids ?? []).not.toContain(taskId);
      }
      expect(await choose.inputValue()).toBe(String(third.id));
      await desk.keyboard.press('Enter');
      // A card from a driver's column is that driver's part: the bar moves it (docs/dispatch.md), as a drag would.
      await new Shell(desk).toast(new RegExp(`^«${CARGO}» → ${third.name}`)).waitFor();
      await card(third.name).waitFor();
      await waitFor(
        async () => {
          const drivers = (await board()).drivers;
          return drivers.find((d) => d.id === third.id)?.task_ids.includes(taskId) && !drivers.find((d) => d.id === other.id)?.task_ids.includes(taskId);
        },
        { message: `${other.name}'s part moved to ${third.name} on the server` },
      );
      // Alt+→: the part of the driver left of Петров goes to Петров; the focus stays on the moved card.
      await desk.keyboard.press('Escape');
      await card(moved.name).focus();
      await desk.keyboard.press('Alt+ArrowRight');
      await waitFor(
        () => desk.evaluate((id) => document.activeElement instanceof HTMLElement && document.activeElement.dataset.taskId === String(id) && document.activeElement.closest('section')?.getAttribute('aria-label'), taskId),
        { message: 'the focus on the moved card' },
      ).then((where) => expect(where).toBe(`Колонка: ${columns[petrovAt]!.name}`));
      await waitFor(async () => (await board()).drivers.find((d) => d.id === petrovId)?.task_ids.includes(taskId), { message: 'moved to Петров on the server' });
      const petrovPart = await db.selectFrom('task_drivers').select(['id', 'planned_quantity', 'transport_rate']).where('task_id', '=', taskId).where('driver_id', '=', petrovId).executeTakeFirstOrThrow();
      expect([petrovPart.planned_quantity, petrovPart.transport_rate]).toEqual([SHARES.moved.share, SHARES.moved.rate]);
      const association = Number(petrovPart.id);

      // 3. The driver on a 360 px phone: three trips; the second with the server cut, delivered once when back.
      const phone = await phoneContext.newPage();
      const phoneErrors = trackErrors(phone);
      await signInAsDriver(phone, url);
      const current = new CurrentTasksPage(phone, url);
      await current.card(CARGO).getByText(`0 рейсов · 0 из ${SHARES.moved.share} т`).waitFor();
      const trips = ['12', '11,5', '12,5'];
      for (const [i, quantity] of trips.entries()) {
        const offline = i === 1;
        if (offline) {
          proxy.setDown(true);
          await phoneContext.setOffline(true);
        }
        const form = await current.openReport(CARGO);
        await form.fill({ quantity, ticket: `Т-${i + 1}`, final: false });
        await form.submit();
        if (offline) {
          await waitFor(async () => (await form.submitToast().getAttribute('data-phase')) === 'queued', { message: 'kept on the phone' });
          expect(await new OutboxView(phone).pending()).toBe(1);
          proxy.setDown(false);
          await phoneContext.setOffline(false);
          await phone.locator('.Toastify').getByText('Отчёт отправлен', { exact: true }).first().waitFor({ timeout: 30_000 });
        }
        await waitFor(async () => (await reportsOn(server, association)).length === i + 1, { timeout: 30_000, message: `trip ${i + 1} on the server` });
      }
      await waitFor(async () => (await new OutboxView(phone).pending()) === 0, { message: 'the outbox empty' });
      const filed = await reportsOn(server, association);
      // Delivered once: three reports, three keys, the quantities as typed.
      expect(filed.map((r) => r.quantity)).toEqual([12, 11.5, 12.5]);
      expect(new Set(filed.map((r) => r.idempotencyKey)).size).toBe(3);
      // The open screen follows: the route table's load failed offline (the first write), and is tried again.
      await current.card(CARGO).getByText(`3 рейса · 36 из ${SHARES.moved.share} т`).waitFor({ timeout: 20_000 });

      // 4. The dispatcher disputes the third trip; /payroll then shows the month with its loads waiting.
      const disputedId = filed[2]!.id;
      await navigate(desk, '/reports?review=pending');
      const queue = new ReviewQueue(desk);
      await queue.row(disputedId).waitFor();
      await queue.dispute(disputedId, REASON);
      await navigate(desk, `/payroll?month=${month}`);
      const pay = new PayrollPage(desk);
      await pay.pendingWarning.waitFor();
      await pay.total.waitFor();

      // 5. The driver: the dispute waits at the top of his home with the reason; one tap corrects it.
      const disputes = phone.getByRole('region', { name: /^Оспорено диспетчером/ });
      await disputes.getByText(`Причина: «${REASON}»`).waitFor({ timeout: 30_000 });
      const top = (await disputes.boundingBox())!;
      expect(top.y + top.height).toBeLessThanOrEqual((await current.card(CARGO).boundingBox())!.y);
      await disputes.getByRole('button', { name: 'Исправить' }).click();
      const edit = phone.getByRole('dialog', { name: 'Исправление отчёта' });
      await edit.getByText(REASON, { exact: false }).first().waitFor();
      await edit.getByLabel(/^Количество/).fill('11,5');
      await edit.getByRole('button', { name: 'Сохранить' }).click();
      await phone.getByText('Отчёт исправлен').first().waitFor({ timeout: 30_000 });
      await waitFor(async () => (await db.selectFrom('reports').select(['review_status', 'quantity']).where('id', '=', disputedId).executeTakeFirstOrThrow()).review_status === 'pending', { message: 'the correction back in review' });
      await disputes.waitFor({ state: 'detached' });

      // 6. Approve-clean from /payroll's warning, back at once: the fresh figures, no «ждут проверки».
      await desk.bringToFront();
      await pay.toReview.click();
      await queue.row(disputedId).waitFor();
      const approved = await queue.approveClean();
      expect(approved).toBeGreaterThanOrEqual(3);
      await desk.goBack();
      const after = await payroll();
      expect(after.pending.loads).toBe(0);
      await pay.total.getByText(/\d/).waitFor();
      await waitFor(async () => (await pay.totalKopecks()) === Math.round(after.total_amount * 100), { message: `/payroll shows ${after.total_amount} ₽` });
      expect(await pay.pendingWarning.count()).toBe(0);

      // The kopecks agree: the screen's total is Σ the month's approved loads and its adjustments; today's three at
      // Петров's own rate, as the template gave it.
      const kopecks = (n: number) => Math.round(n * 100);
      const approvedIds = await db
        .selectFrom('reports as r')
        .innerJoin('task_drivers as td', 'td.id', 'r.association_id')
        .innerJoin('tasks as t', 't.id', 'td.task_id')
        .select('r.id')
        .where('t.company_id', '=', company)
        .where('r.review_status', '=', 'approved')
        .where('t.date', '>=', `${month}-01`)
        .where('t.date', '<=', `${month}-31`)
        .execute();
      const afterItems = await payrollItems(after);
      expect(afterItems.map((i) => i.report_id).sort((a, b) => a - b)).toEqual(approvedIds.map((r) => Number(r.id)).sort((a, b) => a - b));
      const mine = afterItems.filter((i) => i.task_id === taskId);
      expect(mine.map((i) => [i.quantity, i.rate])).toEqual([12, 11.5, 11.5].map((q) => [q, SHARES.moved.rate]));
      for (const item of mine) expect(kopecks(item.amount)).toBe(kopecks(item.quantity * SHARES.moved.rate));
      const loads = afterItems.reduce((sum, i) => sum + kopecks(i.amount), 0);
      const adjustments = after.adjustments.reduce((sum, a) => sum + kopecks(a.amount), 0);
      expect(kopecks(after.total_amount)).toBe(loads + adjustments);
      expect(await pay.totalKopecks()).toBe(loads + adjustments);
      const petrovLoads = afterItems.filter((i) => i.driver_id === petrovId).reduce((sum, i) => sum + kopecks(i.amount), 0);
      const petrovAdjustments = after.adjustments.filter((a) => a.driver_id === petrovId).reduce((sum, a) => sum + kopecks(a.amount), 0);
      const petrovRow = await pay.driverRow('Иван Петров').innerText();
      expect(kopecksOf(/([\d\s\u00a0\u202f]+(?:,\d+)?\s₽)\s*$/.exec(petrovRow.trim())?.[1] ?? '')).toBe(petrovLoads + petrovAdjustments);

      // 7. The month closed through the dialog, with the figures on screen; the stored close carries them.
      const title = monthLabel(month);
      const said = await pay.closeMonth(`${title.charAt(0).toUpperCase()}${title.slice(1)}`);
      expect(said).toContain(`водителей: ${after.drivers.length}`);
      expect(kopecksOf(/К выплате ([^,]+?₽)/.exec(said)?.[1] ?? '')).toBe(loads + adjustments);
      await desk.getByText(/^Месяц закрыт/).waitFor();
      const closed = await payroll();
      expect(closed.status).toBe('closed');
      expect(kopecks(closed.total_amount)).toBe(loads + adjustments);
      expect((await payrollItems(closed)).every((i) => i.frozen)).toBe(true);

      expect(deskErrors).toEqual([]);
      expect(phoneErrors).toEqual([]);
    } finally {
      proxy.setDown(false);
      await deskContext.close();
      await phoneContext.close();
    }
  });
});
