/**
 * Accounts in the console: a driver a manager adds and then deactivates is sent to /login on their next action
 * with the reason; a user whose role a super-admin changes sees the new menu on their next action, without
 * signing in again.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { DEMO, DEMO_PASSWORD, startE2eApp, type E2eApp } from './harness/app.ts';
import { newContext, trackErrors } from './harness/browser.ts';
import { waitFor } from './harness/wait.ts';
import { signIn } from './pages/login-page.ts';
import { Shell } from './pages/shell.ts';
import { call, login, makeUser, PASSWORD } from '../fixtures/accounts.ts';

let app: E2eApp;
beforeAll(async () => {
  app = await startE2eApp();
});
afterAll(async () => {
  await app?.close();
});

describe('accounts', () => {
  let staff: BrowserContext;
  let person: BrowserContext;
  beforeEach(async () => {
    staff = await newContext(app.browser, 'shared', 1440, { serviceWorkers: 'block' });
    person = await newContext(app.browser, 'shared', 1440, { serviceWorkers: 'block' });
  });
  afterEach(async () => {
    await staff.close();
    await person.close();
  });

  it('a driver added and then deactivated by a manager is sent to /login at once, told why', async () => {
    // A driver's vehicle is picked from the company's fleet (issue 31): one in it first.
    const managerToken = (await login(app.server, DEMO.manager, DEMO_PASSWORD)).access_token;
    const vehicle = await call<{ id: number }>(app.server, 'POST', '/api/vehicles/', { token: managerToken, body: { plate: 'М555ММ 77', make: 'КамАЗ', capacity_t: 22.5 } });
    expect(vehicle.status).toBe(201);
    const manager = await signIn(staff, app.url, DEMO.manager, DEMO_PASSWORD);
    const errors = trackErrors(manager);
    await manager.goto(`${app.url}/drivers/manage`);
    await manager.getByRole('button', { name: 'Добавить водителя' }).click();
    const dialog = manager.getByRole('dialog');
    await dialog.getByLabel('Имя и фамилия').fill('Тимур Новиков');
    await dialog.getByLabel('E-mail (логин)').fill('timur@demo.local');
    await dialog.getByLabel('Телефон').fill('+7 900 765-43-21');
    await dialog.getByLabel('Пароль').fill('short');
    await dialog.getByRole('option', { name: /М555ММ 77/ }).waitFor({ state: 'attached' });
    await dialog.getByLabel('Машина из парка').selectOption({ label: 'М555ММ 77 · КамАЗ · 22,5 т' });
    await dialog.getByRole('button', { name: 'Добавить' }).click();
    // A bad field is named in Russian and nothing typed is lost.
    await dialog.getByText('Пароль не короче 8 символов').waitFor();
    expect(await dialog.getByLabel('Имя и фамилия').inputValue()).toBe('Тимур Новиков');
    await dialog.getByLabel('Пароль').fill('timur-password-1');
    await dialog.getByRole('button', { name: 'Добавить' }).click();
    await new Shell(manager).toast('Водитель «Тимур Новиков» добавлен').waitFor();
    const row = manager.getByRole('row', { name: /Тимур Новиков/ });
    await row.getByText('М555ММ 77').waitFor();
    await row.getByText('22,5 т').waitFor();

    const driver = await signIn(person, app.url, 'timur@demo.local', 'timur-password-1');
    await driver.goto(`${app.url}/current-tasks`);
    await driver.getByRole('heading', { name: 'Текущие задачи' }).waitFor();

    await row.getByRole('button', { name: 'Отключить' }).click();
    await manager.getByRole('dialog').getByRole('button', { name: 'Отключить' }).click();
    await new Shell(manager).toast('Водитель «Тимур Новиков» отключён').waitFor();

    // The driver hears of it without an action of theirs (the change feed: their screen refetches); the server
    // refuses the token, the refresh says why.
    await waitFor(() => new URL(driver.url()).pathname === '/login', { message: 'the deactivated driver is sent to /login', timeout: 15_000 });
    await new Shell(driver).toast('Учётная запись отключена, обратитесь к администратору').waitFor();
    expect(errors).toEqual([]);
  });

  it('a role changed by a super-admin changes the user’s menu on their next action', async () => {
    const user = await makeUser(app.server, 'manager', (await app.server.db.kysely.selectFrom('companies').select('id').orderBy('id').executeTakeFirstOrThrow()).id, {
      name: 'Вера Менеджерова',
    });
    const page = await signIn(person, app.url, user.email, PASSWORD);
    const shell = new Shell(page);
    await waitFor(async () => (await shell.sidebarLabels()).includes('Управление задачами'), { message: 'a manager’s menu' });
    expect(await shell.sidebarLabels()).not.toContain('Поддержка');

    const admin = await signIn(staff, app.url, DEMO.super, DEMO_PASSWORD);
    await admin.goto(`${app.url}/users/manage?search=${encodeURIComponent('Вера')}`);
    const row = admin.getByRole('row', { name: /Вера Менеджерова/ });
    await row.getByRole('button', { name: 'Изменить' }).click();
    const dialog = admin.getByRole('dialog');
    await dialog.getByLabel('Роль', { exact: true }).selectOption('admin');
    await dialog.getByRole('button', { name: 'Сохранить' }).click();
    await new Shell(admin).toast('Изменения «Вера Менеджерова» сохранены').waitFor();
    await row.getByText('Администратор').waitFor();

    // The next action, without a reload: the old role's token is refused, the refresh brings the new role.
    await shell.sidebar.getByRole('link', { name: 'Управление водителями' }).click();
    await waitFor(async () => (await shell.sidebarLabels()).includes('Поддержка'), { message: 'the admin’s menu after the next action' });
    expect(new URL(page.url()).pathname).toBe('/drivers/manage');
  });
});
