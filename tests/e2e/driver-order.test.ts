/**
 * /tasks/driverTaskOrder: the manager reorders a driver's day by keyboard (dnd-kit's keyboard sensor) and with
 * the ↑ button, saves, and the driver's /current-tasks shows exactly that order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Task } from '../../contract/entities.ts';
import { login } from '../fixtures/accounts.ts';
import { dayFromToday } from '../fixtures/tasks.ts';
import { DEMO, DEMO_PASSWORD, startE2eApp, type E2eApp } from './harness/app.ts';
import { newContext, trackErrors } from './harness/browser.ts';
import { waitFor, waitQuiet } from './harness/wait.ts';
import { CurrentTasksPage } from './pages/current-tasks-page.ts';
import { demoDriverId } from './pages/driver-records.ts';
import { signIn } from './pages/login-page.ts';

let app: E2eApp;
beforeAll(async () => {
  app = await startE2eApp();
});
afterAll(async () => {
  await app?.close();
});

const CARGOS = ['Порядок: первый', 'Порядок: второй', 'Порядок: третий'];

describe('a driver\'s task order', () => {
  it('set by the manager by keyboard is the order the driver sees', async () => {
    const driverId = await demoDriverId(app.server);
    const date = dayFromToday(30);
    const { access_token } = await login(app.server, DEMO.manager, DEMO_PASSWORD);
    for (const cargo of CARGOS) {
      const res = await app.server.app.inject({
        method: 'POST',
        url: '/api/tasks/',
        headers: { authorization: `Bearer ${access_token}` },
        payload: { date, cargo, loading_place: 'Карьер', unloading_place: 'Стройка', planned_quantity: 20, driver_ids: [driverId] },
      });
      expect(res.statusCode).toBe(201);
      expect((res.json() as Task).id).toBeGreaterThan(0);
    }

    const context = await newContext(app.browser, 'shared', 1440, { serviceWorkers: 'block' });
    const page = await signIn(context, app.url, DEMO.manager, DEMO_PASSWORD);
    const errors = trackErrors(page);
    await page.goto(`${app.url}/tasks/driverTaskOrder?driver=${driverId}&date=${date}`);
    const items = page.locator('.order-item strong');
    await waitFor(async () => (await items.allTextContents()).join('|') === CARGOS.join('|'), { message: 'the day in creation order' });

    // Keyboard: lift the third, move it up twice, drop it — once the page has settled (the change feed's refetches
    // of the tasks made above can arrive late on a loaded machine).
    await waitQuiet(app.proxy, 1000, 15_000);
    await page.getByRole('button', { name: /Переместить задачу «Порядок: третий»/ }).focus();
    // Each step waits for dnd-kit's Russian announcement, as a screen-reader user would hear it.
    const said = (text: string) => waitFor(async () => (await page.locator('[role="status"][aria-live]').allTextContents()).some((t) => t.includes(text)), { message: `announced: ${text}` });
    await page.keyboard.press('Space');
    await said('над местом 3');
    // dnd-kit's KeyboardSensor adds its arrow-key listener in a setTimeout after the lift, and the announcement can
    // render before that timer runs on a loaded machine; a timer queued now runs after it, so the arrows are heard.
    await page.evaluate(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
    await page.keyboard.press('ArrowUp');
    await said('над местом 2');
    await page.keyboard.press('ArrowUp');
    await said('над местом 1');
    await page.keyboard.press('Space');
    await said('поставлена на место');
    await waitFor(async () => (await items.allTextContents())[0] === 'Порядок: третий', { message: 'keyboard moved the third task first' });
    // The thumb's button: the first (now second) goes below the second.
    await page.getByRole('button', { name: 'Ниже: «Порядок: первый»' }).click();
    const wanted = ['Порядок: третий', 'Порядок: второй', 'Порядок: первый'];
    await waitFor(async () => (await items.allTextContents()).join('|') === wanted.join('|'), { message: 'the new order on screen' });
    await page.getByRole('button', { name: 'Сохранить порядок' }).click();
    await page.getByText(/Порядок задач на .* сохранён \(водитель: /).waitFor();
    expect(errors).toEqual([]);
    await context.close();

    const driverContext = await newContext(app.browser, 'shared', 360, { serviceWorkers: 'block' });
    try {
      const driverPage = await signIn(driverContext, app.url, DEMO.driver, DEMO_PASSWORD);
      const current = await new CurrentTasksPage(driverPage, app.url).goto();
      await waitFor(
        async () => {
          const texts = await current.cards.allTextContents();
          const seen = texts.map((text) => CARGOS.find((cargo) => text.includes(cargo))).filter(Boolean);
          return seen.join('|') === wanted.join('|');
        },
        { message: 'the driver sees the manager\'s order' },
      );
    } finally {
      await driverContext.close();
    }
  });
});
