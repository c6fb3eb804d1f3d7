/**
 * Registration end to end: a visitor files a request on /register, cannot sign in yet, a manager of the
 * chosen company approves it on /user-registration-requests, and then the new user signs in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, DEMO_PASSWORD, startE2eApp, type E2eApp } from './harness/app.ts';
import { newContext, trackErrors } from './harness/browser.ts';
import { waitFor } from './harness/wait.ts';
import { LoginPage, signIn } from './pages/login-page.ts';
import { RegisterPage, type Registration } from './pages/register-page.ts';
import { RegistrationRequestsPage } from './pages/registration-requests-page.ts';
import { ProfilePage } from './pages/profile-page.ts';
import { Shell } from './pages/shell.ts';

describe('registration', () => {
  let app: E2eApp;

  beforeAll(async () => {
    app = await startE2eApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('register → a manager approves → the new user signs in', async () => {
    const applicant: Registration = {
      email: `e2e-driver-${Date.now()}@example.test`,
      password: 'e2e-secret-42',
      name: 'Пётр Сидоров',
      phone: '+7 913 555-44-33',
      company: 'ООО «СеверТранс»',
      role: 'driver',
      vehicle: { number: 'Е777КХ 77', brand: 'Volvo FH', capacity: '25' },
    };

    // The visitor files the request.
    const visitor = await newContext(app.browser, 'shared', 360, { serviceWorkers: 'block' });
    try {
      const page = await visitor.newPage();
      const errors = trackErrors(page);
      const register = await new RegisterPage(page, app.url).goto();
      await register.register(applicant);
      await register.success.waitFor();

      // Nobody signs in before approval.
      const login = await new LoginPage(page, app.url).goto();
      await login.submitAs(applicant.email, applicant.password);
      await login.error.waitFor();
      expect(await login.error.textContent()).toBe('Заявка на регистрацию ещё не подтверждена');
      expect(new Shell(page).path()).toBe('/login');
      expect(errors).toEqual([]);
    } finally {
      await visitor.close();
    }

    // The manager of that company sees the request as the spec lays it out, and approves it.
    const manager = await newContext(app.browser, 'shared', 1440, { serviceWorkers: 'block' });
    try {
      const page = await signIn(manager, app.url, DEMO.manager, DEMO_PASSWORD);
      const requests = await new RegistrationRequestsPage(page, app.url).goto();
      const card = requests.card(applicant.email);
      await card.waitFor();
      expect(await card.getByRole('heading').textContent()).toMatch(new RegExp(`^Заявка №\\d+ — ${applicant.email.replace(/\./g, '\\.')}$`));
      expect(await requests.fact(card, 'Имя').textContent()).toBe(applicant.name);
      expect(await requests.fact(card, 'Телефон').textContent()).toBe(applicant.phone);
      expect(await requests.fact(card, 'Компания').textContent()).toBe(applicant.company);
      expect(await requests.fact(card, 'Роль').textContent()).toBe('Водитель');
      expect(await requests.fact(card, 'Госномер').textContent()).toBe(applicant.vehicle?.number);
      expect(await requests.fact(card, 'Марка').textContent()).toBe(applicant.vehicle?.brand);
      expect(await requests.fact(card, 'Грузоподъёмность').textContent()).toBe('25 т');

      await requests.approve(applicant.email);
      await new Shell(page).toast('Пользователь успешно создан.').waitFor();
      await card.waitFor({ state: 'detached' });
    } finally {
      await manager.close();
    }

    // The new user signs in and finds their profile and vehicle.
    const newcomer = await newContext(app.browser, 'shared', 360, { serviceWorkers: 'block' });
    try {
      const page = await signIn(newcomer, app.url, applicant.email, applicant.password);
      const profile = new ProfilePage(page, app.url);
      await profile.title.waitFor();
      await waitFor(async () => (await profile.fact('E-mail').textContent()) === applicant.email, { message: 'profile e-mail' });
      expect(await profile.fact('Имя').textContent()).toBe(applicant.name);
      expect(await profile.fact('Компания').textContent()).toBe(applicant.company);
      expect(await profile.fact('Роль').textContent()).toBe('Водитель');
      await profile.transports.getByText(applicant.vehicle?.number ?? '').waitFor();
    } finally {
      await newcomer.close();
    }
  });

  it('register → a manager rejects with a reason → the applicant is told why at sign-in', async () => {
    const applicant: Registration = {
      email: `e2e-rejected-${Date.now()}@example.test`,
      password: 'e2e-secret-43',
      name: 'Иван Отказов',
      phone: '+7 913 555-44-34',
      company: 'ООО «СеверТранс»',
      role: 'driver',
      vehicle: { number: 'Е778КХ 77', brand: 'МАЗ', capacity: '20' },
    };
    const visitor = await newContext(app.browser, 'shared', 360, { serviceWorkers: 'block' });
    const manager = await newContext(app.browser, 'shared', 360, { serviceWorkers: 'block' });
    try {
      const applicantPage = await visitor.newPage();
      const register = await new RegisterPage(applicantPage, app.url).goto();
      await register.register(applicant);
      await register.success.waitFor();

      // On a phone: a reason is required, and the card leaves the list once rejected.
      const page = await signIn(manager, app.url, DEMO.manager, DEMO_PASSWORD);
      const requests = await new RegistrationRequestsPage(page, app.url).goto();
      await requests.card(applicant.email).waitFor();
      const empty = await requests.reject(applicant.email, '');
      await empty.getByText('Укажите причину: заявитель увидит её при входе').waitFor();
      await empty.getByLabel('Причина').fill('Водитель не из нашего парка');
      await empty.getByRole('button', { name: 'Отклонить' }).click();
      await new Shell(page).toast(`Заявка ${applicant.email} отклонена.`).waitFor();
      await requests.card(applicant.email).waitFor({ state: 'detached' });

      const login = await new LoginPage(applicantPage, app.url).goto();
      await login.submitAs(applicant.email, applicant.password);
      await login.error.waitFor();
      expect(await login.error.textContent()).toBe('Заявка на регистрацию отклонена: Водитель не из нашего парка');
    } finally {
      await visitor.close();
      await manager.close();
    }
  });
});
