/**
 * Loads you can trust, end to end in Chromium against the real server (docs/loads.md, docs/reports-review.md):
 * a task of 150 т for two drivers with shares 75/75 → driver A files three trips (the second offline, delivered
 * when the network returns, re-using the first trip's photo) → the manager's /reports shows the three, the
 * re-used photo flagged naming the first → «Подтвердить все без замечаний (2)» → the flagged one disputed →
 * driver A sees the reason, replaces the photo, files the last trip → the manager approves → A's part is
 * finished and the task still in progress until driver B finishes → «… из 150 т» with the shortfall in words.
 */
import { describe, expect, it } from 'vitest';
import type { Page as TaskPage, Report, Task } from '../../contract/entities.ts';
import { login } from '../fixtures/accounts.ts';
import { DEMO, DEMO_PASSWORD } from './harness/app.ts';
import { newContext, trackErrors } from './harness/browser.ts';
import { waitFor } from './harness/wait.ts';
import { signIn } from './pages/login-page.ts';
import { OutboxView } from './pages/driver-outbox.ts';
import { reportsOn } from './pages/driver-records.ts';
import { signInAsDriver } from './pages/driver-session.ts';
import { waitForServiceWorker } from './harness/engine.ts';
import { useDriverSuite } from './pages/driver-suite.ts';
import { CurrentTasksPage } from './pages/driver-tasks.ts';

const CARGO = 'Щебень 5–20 (проверка рейсов)';
const suite = useDriverSuite(4);
const shots = process.env.E2E_SCREENSHOTS;

describe('loads and their review', () => {
  it('three trips, one re-used photo caught, approved in one action, disputed, corrected, finished; the task follows one rule', async () => {
    const { server, proxy, browser, url } = suite.app;
    const [photo1, photo2, photo3, photo4] = suite.photos as [typeof suite.photos[0], typeof suite.photos[0], typeof suite.photos[0], typeof suite.photos[0]];
    const users = await server.db.kysely.selectFrom('users').select(['id', 'email']).where('email', 'in', [DEMO.driver, 'sokolov@demo.local']).execute();
    const driverA = users.find((u) => u.email === DEMO.driver)!.id;
    const driverB = users.find((u) => u.email === 'sokolov@demo.local')!.id;
    const manager = (await login(server, DEMO.manager, DEMO_PASSWORD)).access_token;
    // The trips here follow each other within seconds; a real truck's cycle is minutes, so the company's minimum
    // cycle is off for this test (else every trip is rightly flagged «Слишком быстрый рейс»).
    const company = (await server.db.kysely.selectFrom('users').select('company_id').where('id', '=', users[0]!.id).executeTakeFirstOrThrow()).company_id!;
    await server.db.kysely.updateTable('companies').set({ check_thresholds: JSON.stringify({ min_cycle_minutes: 0 }) }).where('id', '=', company).execute();
    const api = async <T,>(method: 'GET' | 'POST' | 'PUT', path: string, token: string, body?: unknown): Promise<T> => {
      const res = await server.app.inject({ method, url: `/api${path}`, headers: { authorization: `Bearer ${token}` }, ...(body === undefined ? {} : { payload: body as object }) });
      if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${res.body}`);
      return res.json() as T;
    };
    const task = await api<Task>('POST', '/tasks/', manager, {
      date: new Date().toISOString().slice(0, 10),
      cargo: CARGO,
      loading_place: 'Карьер «Лесной»',
      unloading_place: 'ЖК «Северный парк», корп. 7',
      planned_quantity: 150,
      driver_ids: [driverA, driverB],
      drivers: [
        { id: driverA, planned_quantity: 75 },
        { id: driverB, planned_quantity: 75 },
      ],
    });
    const association = task.driver_associations.find((a) => a.driver_id === driverA)!.id;
    const taskNow = async () => (await api<TaskPage<Task>>('GET', `/tasks/bulk?ids=${task.id}`, manager)).items[0]!;

    // Driver A, on a phone.
    const driverContext = await newContext(browser, 'shared', 360);
    const managerContext = await newContext(browser, 'shared', 1440, { serviceWorkers: 'block' });
    try {
      const phone = await driverContext.newPage();
      const errors = trackErrors(phone);
      await signInAsDriver(phone, url);
      await waitForServiceWorker(phone);
      const current = await new CurrentTasksPage(phone, url).goto();
      const card = current.card(CARGO);
      await card.getByText('0 рейсов · 0 из 75 т').waitFor();

      // Trip 1, online.
      let form = await current.openReport(CARGO);
      await form.fill({ quantity: '15', ticket: 'Т-101', final: false });
      await form.addPhotos([photo1]);
      await form.submit();
      await expect.poll(() => reportsOn(server, association), { timeout: 30_000 }).toHaveLength(1);
      // The server has it; the phone must have its answer too before the cut, or trip 1 waits in the queue beside trip 2.
      const outbox = new OutboxView(phone);
      await expect.poll(() => outbox.pending(), { timeout: 30_000 }).toBe(0);

      // Trip 2, with the network cut, re-using trip 1's photo: queued, then delivered once the network returns.
      proxy.setDown(true);
      await driverContext.setOffline(true);
      form = await current.openReport(CARGO);
      await form.fill({ quantity: '15', ticket: 'Т-102', final: false });
      await form.addPhotos([photo1]);
      await form.submit();
      await expect.poll(() => outbox.pending(), { timeout: 10_000 }).toBe(1);
      proxy.setDown(false);
      await driverContext.setOffline(false);
      await expect.poll(() => reportsOn(server, association), { timeout: 30_000, interval: 250 }).toHaveLength(2);

      // Trip 3.
      form = await current.openReport(CARGO);
      await form.fill({ quantity: '14,5', ticket: 'Т-103', final: false });
      await form.addPhotos([photo2]);
      await form.submit();
      await expect.poll(() => reportsOn(server, association), { timeout: 30_000 }).toHaveLength(3);
      await card.getByText('3 рейса · 44,5 из 75 т').waitFor({ timeout: 30_000 });
      expect((await taskNow()).status).toBe('in_progress');

      // The manager's review queue: today's three, the re-used photo flagged naming the first trip's report.
      const reports = (await api<Report[]>('GET', `/reports/association/${association}`, manager)).sort((a, b) => a.id - b.id);
      const [first, second] = reports as [Report, Report, Report];
      const desk = await signIn(managerContext, url, DEMO.manager, DEMO_PASSWORD);
      const deskErrors = trackErrors(desk);
      await desk.goto(`${url}/reports?period=today&review=pending`);
      const table = desk.getByRole('table');
      const rowOf = (id: number) => table.locator('tbody tr').filter({ hasText: `№${id}` }).filter({ hasText: CARGO });
      await rowOf(second.id).getByText('Повтор фото').waitFor({ timeout: 20_000 });
      await rowOf(second.id).getByText(`№${first.id}`, { exact: false }).first().waitFor();
      expect(await table.locator('tbody tr').filter({ hasText: CARGO }).count()).toBe(3);
      if (shots) await desk.screenshot({ path: `${shots}/reports-1440.png` });

      const approveAll = desk.getByRole('button', { name: 'Подтвердить все без замечаний (2)' });
      await approveAll.click();
      await desk.getByRole('dialog').getByRole('button', { name: 'Подтвердить' }).click();
      await desk.getByText('Подтверждено отчётов: 2').waitFor();
      await waitFor(async () => (await table.locator('tbody tr').filter({ hasText: CARGO }).count()) === 1, { message: 'only the flagged one still waits' });

      await rowOf(second.id).getByRole('button', { name: 'Оспорить' }).click();
      const dispute = desk.getByRole('dialog', { name: `Оспорить отчёт №${second.id}` });
      await dispute.getByRole('button', { name: 'Оспорить' }).click();
      await dispute.getByText('Напишите, что не так').waitFor();
      await dispute.getByLabel('Что не так').fill('Это фото первого рейса — пришлите талон второго');
      await dispute.getByRole('button', { name: 'Оспорить' }).click();
      await desk.getByText(`Отчёт №${second.id} оспорен`).waitFor();

      // Driver A sees the reason on the card, replaces the photo, and the report goes back to review.
      await phone.bringToFront();
      await card.getByText('Диспетчер оспорил отчёт: откройте «Мои отчёты», прочитайте причину и исправьте.').waitFor({ timeout: 20_000 });
      const disputed = card.locator('.drv-report').filter({ hasText: 'Это фото первого рейса' });
      await disputed.waitFor();
      if (shots) await phone.screenshot({ path: `${shots}/driver-disputed-360.png`, fullPage: true });
      await disputed.getByRole('button', { name: 'Исправить' }).click();
      const edit = phone.getByRole('dialog', { name: 'Исправление отчёта' });
      await edit.getByRole('button', { name: 'Убрать фото' }).first().click();
      await edit.locator('label', { hasText: 'Из галереи' }).locator('input[type=file]').setInputFiles([photo3]);
      await edit.getByText('сжатие...').first().waitFor({ state: 'detached', timeout: 30_000 });
      await edit.getByRole('button', { name: 'Сохранить' }).click();
      await phone.getByText('Отчёт исправлен').waitFor({ timeout: 30_000 });
      const corrected = (await api<Report[]>('GET', `/reports/association/${association}`, manager)).find((r) => r.id === second.id)!;
      expect(corrected.review_status).toBe('pending');
      expect(corrected.flags.map((f) => f.code)).not.toContain('duplicate_photo');

      // The last trip finishes A's part: the card leaves the current tasks.
      form = await current.openReport(CARGO);
      await form.fill({ quantity: '15', ticket: 'Т-104' });
      await form.addPhotos([photo4]);
      await form.submit();
      await card.waitFor({ state: 'detached', timeout: 30_000 });

      // The manager approves both; A's part is finished with 59,5 of 75 т, the task still in progress.
      await desk.bringToFront();
      await desk.reload();
      await desk.getByRole('button', { name: 'Подтвердить все без замечаний (2)' }).click();
      await desk.getByRole('dialog').getByRole('button', { name: 'Подтвердить' }).click();
      await desk.getByText('Подтверждено отчётов: 2').waitFor();
      let now = await taskNow();
      expect(now.status).toBe('in_progress');
      expect(now.driver_associations.find((a) => a.driver_id === driverA)).toMatchObject({ status: 'completed', trips: 4, delivered: 59.5, share: 75 });
      await desk.goto(`${url}/tasks/active`);
      await desk.locator('.active-line').filter({ hasText: CARGO }).getByText('4 рейса · 59,5 из 75 т').waitFor({ timeout: 20_000 });

      // Driver B finishes without another trip: the task is completed, short of plan, and says so.
      const b = (await login(server, 'sokolov@demo.local', DEMO_PASSWORD)).access_token;
      await api('PUT', `/tasks/${task.id}/`, b, { status: 'completed' });
      now = await taskNow();
      expect(now.status).toBe('completed');
      expect(now.progress).toEqual({ delivered: 59.5, plan: 150, drivers: 2, drivers_finished: 2, shortfall: 90.5 });
      await desk.goto(`${url}/tasks/manage?status=all&search=${encodeURIComponent('проверка рейсов')}`);
      await desk.getByText('59,5 из 150 т · не довезено 90,5 т').first().waitFor({ timeout: 20_000 });
      if (shots) await desk.screenshot({ path: `${shots}/tasks-shortfall-1440.png` });

      expect(errors).toEqual([]);
      expect(deskErrors).toEqual([]);
    } finally {
      await driverContext.close();
      await managerContext.close();
    }
  });
});
