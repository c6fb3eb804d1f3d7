/**
 * /tasks/create: Russian validation with the typed values kept, a draft that survives a reload, «Создать ещё
 * одну» keeping the date and places, a task with two drivers (one with its own quantity), and the same form
 * editing a task and a driver's quantity.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { DEMO, DEMO_PASSWORD, startE2eApp, type E2eApp } from './harness/app.ts';
import { newContext, trackErrors } from './harness/browser.ts';
import { waitFor } from './harness/wait.ts';
import { signIn } from './pages/login-page.ts';

let app: E2eApp;
beforeAll(async () => {
  app = await startE2eApp();
});
afterAll(async () => {
  await app?.close();
});

const field = (page: Page, name: string) => page.locator(`[name="${name}"]`);

async function tasksWithCargo(cargo: string) {
  return app.server.db.kysely.selectFrom('tasks').selectAll().where('cargo', '=', cargo).execute();
}

describe('the task form', () => {
  let context: BrowserContext;
  beforeEach(async () => {
    context = await newContext(app.browser, 'shared', 1440, { serviceWorkers: 'block' });
  });
  afterEach(async () => {
    await context.close();
  });

  it('shows Russian errors and keeps what was typed; the draft survives a reload; two drivers, one with its own quantity', async () => {
    const page = await signIn(context, app.url, DEMO.manager, DEMO_PASSWORD);
    const errors = trackErrors(page);
    await page.goto(`${app.url}/tasks/create`);
    await field(page, 'cargo').fill('Щебень e2e');
    await field(page, 'planned_quantity').fill('12,5,5');
    await page.getByRole('button', { name: 'Создать', exact: true }).click();
    await page.getByText('Укажите место погрузки').waitFor();
    expect(await page.getByText('Введите число').count()).toBeGreaterThan(0);
    expect(await field(page, 'cargo').inputValue()).toBe('Щебень e2e');
    // The first wrong field has the focus.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('loading_place');

    await field(page, 'loading_place').fill('Карьер «Лесной»');
    await field(page, 'unloading_place').fill('ЖК «Северный»');
    await field(page, 'planned_quantity').fill('120,5');
    await page.getByLabel('Добавить водителя').fill('Иван');
    await page.getByRole('button', { name: /Иван Петров/ }).click();
    await page.getByLabel('Добавить водителя').fill('Алексей');
    await page.getByLabel('Добавить водителя').press('Enter');
    const ivan = (await app.server.db.kysely.selectFrom('users').select('id').where('name', '=', 'Иван Петров').executeTakeFirstOrThrow()).id;
    await field(page, `drivers.${ivan}.quantity`).fill('22,5');

    // A reload keeps the draft.
    await waitFor(
      () => page.evaluate(() => Object.keys(localStorage).some((k) => k.startsWith('reis-task-draft') && (localStorage.getItem(k) ?? '').includes('22,5'))),
      { message: 'the draft is stored' },
    );
    await page.reload();
    await field(page, 'cargo').waitFor();
    expect(await field(page, 'cargo').inputValue()).toBe('Щебень e2e');
    expect(await field(page, `drivers.${ivan}.quantity`).inputValue()).toBe('22,5');

    await page.getByRole('button', { name: 'Создать ещё одну' }).click();
    await page.getByText(/Создана задача/).waitFor();
    const [task] = await tasksWithCargo('Щебень e2e');
    expect(task).toMatchObject({ planned_quantity: 120.5, loading_place: 'Карьер «Лесной»', unloading_place: 'ЖК «Северный»' });
    const associations = await app.server.db.kysely.selectFrom('task_drivers').selectAll().where('task_id', '=', task!.id).execute();
    expect(associations).toHaveLength(2);
    expect(associations.find((a) => a.driver_id === ivan)?.quantity).toBe(22.5);
    // The next task keeps the date and the places, and starts at the cargo.
    expect(await field(page, 'cargo').inputValue()).toBe('');
    expect(await field(page, 'loading_place').inputValue()).toBe('Карьер «Лесной»');
    expect(await field(page, 'date').inputValue()).toBe(task!.date.split('-').reverse().join('.'));
    await waitFor(() => page.evaluate(() => document.activeElement?.getAttribute('name') === 'cargo'), { message: 'cargo focused' });
    expect(errors).toEqual([]);
  });

  it('edits a task\'s field and a driver\'s quantity, sending only what changed; a stale save is refused', async () => {
    const page = await signIn(context, app.url, DEMO.manager, DEMO_PASSWORD);
    const row = await app.server.db.kysely
      .selectFrom('tasks as t')
      .innerJoin('task_drivers as td', 'td.task_id', 't.id')
      .select(['t.id', 't.cargo', 'td.driver_id'])
      .where('t.cargo', '=', 'Грунт растительный')
      .executeTakeFirstOrThrow();
    await page.goto(`${app.url}/tasks/create?id=${row.id}`);
    await field(page, 'cargo').waitFor();
    await field(page, 'comment').fill('Въезд со стороны склада');
    await field(page, `drivers.${row.driver_id}.quantity`).fill('17,5');
    await page.getByRole('button', { name: 'Сохранить', exact: true }).click();
    await page.getByText(`Задача №${row.id} сохранена`).waitFor();
    const saved = await app.server.db.kysely.selectFrom('tasks').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
    expect(saved.comment).toBe('Въезд со стороны склада');
    expect(saved.cargo).toBe('Грунт растительный');
    const association = await app.server.db.kysely.selectFrom('task_drivers').select('quantity').where('task_id', '=', row.id).where('driver_id', '=', row.driver_id).executeTakeFirstOrThrow();
    expect(association.quantity).toBe(17.5);

    // One driver's change saved at once, by the per-driver call.
    await field(page, `drivers.${row.driver_id}.quantity`).fill('18,25');
    await page.getByRole('button', { name: 'Сохранить водителя' }).click();
    await page.getByText(/изменения сохранены/).waitFor();
    const perDriver = await app.server.db.kysely.selectFrom('task_drivers').select('quantity').where('task_id', '=', row.id).where('driver_id', '=', row.driver_id).executeTakeFirstOrThrow();
    expect(perDriver.quantity).toBe(18.25);

    // Someone else changes the task; this tab's next save is refused, and says why.
    await app.server.db.kysely.updateTable('tasks').set({ updated_at: new Date().toISOString(), cargo: 'Грунт (изменён)' }).where('id', '=', row.id).execute();
    await field(page, 'comment').fill('Моя правка');
    await page.getByRole('button', { name: 'Сохранить', exact: true }).click();
    await page.getByText(/изменили в другой вкладке или другим пользователем/).first().waitFor();
    const after = await app.server.db.kysely.selectFrom('tasks').select(['comment', 'cargo']).where('id', '=', row.id).executeTakeFirstOrThrow();
    expect(after).toEqual({ comment: 'Въезд со стороны склада', cargo: 'Грунт (изменён)' });
    expect(await field(page, 'comment').inputValue()).toBe('Моя правка');
  });

  it('a template saved, applied on another date, and repeated on chosen weekdays; the picker shows each driver\'s day', async () => {
    const page = await signIn(context, app.url, DEMO.manager, DEMO_PASSWORD);
    const errors = trackErrors(page);
    await page.goto(`${app.url}/tasks/create`);
    await field(page, 'cargo').fill('Шаблон: песок мытый');
    await field(page, 'loading_place').fill('Карьер «Лесной»');
    await field(page, 'unloading_place').fill('Бетонный завод');
    await field(page, 'planned_quantity').fill('60');
    await page.getByLabel('Добавить водителя').fill('Иван');
    await page.getByRole('button', { name: /Иван Петров.*в этот день/ }).click();
    await page.getByRole('button', { name: 'Сохранить как шаблон' }).click();
    const dialog = page.getByRole('dialog', { name: 'Сохранить как шаблон' });
    expect(await dialog.getByLabel('Название шаблона').inputValue()).toBe('Шаблон: песок мытый: Карьер «Лесной» → Бетонный завод');
    await dialog.getByRole('button', { name: 'Сохранить' }).click();
    await page.getByText(/Шаблон «Шаблон: песок мытый.*» сохранён/).waitFor();

    await page.getByRole('button', { name: 'Очистить' }).click();
    expect(await field(page, 'cargo').inputValue()).toBe('');
    await page.getByLabel('Создать из шаблона').selectOption({ label: 'Шаблон: песок мытый: Карьер «Лесной» → Бетонный завод' });
    expect(await field(page, 'cargo').inputValue()).toBe('Шаблон: песок мытый');
    expect(await field(page, 'planned_quantity').inputValue()).toBe('60');

    // Repeat from next Monday: Monday and Wednesday, for two weeks — four tasks.
    const monday = new Date();
    monday.setUTCDate(monday.getUTCDate() + ((8 - monday.getUTCDay()) % 7 || 7));
    const iso = (d: Date) => d.toISOString().slice(0, 10);
    const ru = (d: Date) => iso(d).split('-').reverse().join('.');
    const until = new Date(monday);
    until.setUTCDate(until.getUTCDate() + 9);
    await field(page, 'date').fill(ru(monday));
    await page.getByLabel('Повторять', { exact: true }).check();
    await page.getByLabel('По дням недели').check();
    for (const day of ['вт', 'чт', 'пт']) await page.getByRole('group', { name: 'Дни недели' }).getByRole('button', { name: day, exact: true }).click();
    await field(page, 'repeat_until').fill(ru(until));
    await page.getByText(/Будет создано: 4 задачи/).waitFor();
    await page.getByRole('button', { name: 'Создать 4 задачи' }).click();
    await page.waitForURL(`${app.url}/tasks/manage`);
    const rows = await app.server.db.kysely.selectFrom('tasks').select(['date', 'status']).where('cargo', '=', 'Шаблон: песок мытый').orderBy('date').execute();
    const wednesday = new Date(monday);
    wednesday.setUTCDate(wednesday.getUTCDate() + 2);
    const plus = (d: Date, n: number) => {
      const x = new Date(d);
      x.setUTCDate(x.getUTCDate() + n);
      return iso(x);
    };
    expect(rows.map((r) => r.date)).toEqual([iso(monday), iso(wednesday), plus(monday, 7), plus(wednesday, 7)]);
    expect(rows.every((r) => r.status === 'in_progress')).toBe(true);
    expect(errors).toEqual([]);
  });
});
