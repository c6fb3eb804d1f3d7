/**
 * /tasks/import in Chromium (docs/task-entry.md): a manager chooses an .xlsx of 20 rows with 2 bad ones; the preview
 * names both reasons, and that the file's places are not in «Места»; «Создать недостающие» turns those rows valid,
 * naming the places it will create; «Создать 18 задач, пропустить 2 строки» creates them and the places; the same
 * file again is refused before anything is created. At 1440 and 360 px (cards on the phone). The template downloaded and chosen as it is shows its
 * example row as the example.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { dayFromToday } from '../fixtures/tasks.ts';
import { DEMO, DEMO_PASSWORD, startE2eApp, type E2eApp } from './harness/app.ts';
import { newContext, trackErrors } from './harness/browser.ts';
import { signIn } from './pages/login-page.ts';

let app: E2eApp;
beforeAll(async () => {
  app = await startE2eApp();
});
afterAll(async () => {
  await app?.close();
});

async function ordersFile(tag: string): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Задачи');
  sheet.addRow(['дата', 'груз', 'место погрузки', 'место выгрузки', 'объём', 'единица', 'ставка', 'водители', 'комментарий']);
  const [y, m, d] = dayFromToday(3).split('-');
  for (let i = 1; i <= 20; i++) sheet.addRow([`${d}.${m}.${y}`, `Импорт ${tag} ${i}`, `Карьер Гранитный ${tag}`, 'ЖК «Северный парк», корп. 3', '12,5', 'т', 450, i === 1 ? 'Иван Петров' : '', '']);
  sheet.getCell('A6').value = '31.02.2026';
  sheet.getCell('H10').value = 'Пётр Неизвестный';
  return Buffer.from(await book.xlsx.writeBuffer());
}

describe('tasks from Excel', () => {
  for (const width of [1440, 360]) {
    it(`previews every row, creates the 18 valid ones, refuses the same file again (${width} px)`, async () => {
      const context = await newContext(app.browser, 'shared', width, { serviceWorkers: 'block' });
      const page = await signIn(context, app.url, DEMO.manager, DEMO_PASSWORD);
      const errors = trackErrors(page);
      await page.goto(`${app.url}/tasks/import`);
      const tag = `${width}`;
      const file = { name: `заявки-${tag}.xlsx`, mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: await ordersFile(tag) };
      await page.locator('input[type="file"]').setInputFiles(file);
      await page.getByRole('heading', { name: `Проверка файла «заявки-${tag}.xlsx»` }).waitFor();
      // The loading place is not in «Места» (the unloading one is the demo's): each row says so until the tick.
      await page.getByText(`места погрузки «Карьер Гранитный ${tag}» нет в «Местах»`).first().waitFor();
      await page.getByText('будут созданы — 0').waitFor();
      await page.getByLabel('Создать недостающие').check();
      await page.getByText('будут созданы — 18').waitFor();
      await page.getByText(`Будут созданы карточки: место «Карьер Гранитный ${tag}».`).waitFor();
      await page.getByText(/дата не распознана/).first().waitFor();
      await page.getByText(/Пётр Неизвестный/).first().waitFor();
      await page.screenshot({ path: `/tmp/import-${width}.png`, fullPage: true });
      await page.getByRole('button', { name: 'Создать 18 задач, пропустить 2 строки' }).click();
      await page.getByRole('heading', { name: 'Создано: 18 задач' }).waitFor();
      const created = await app.server.db.kysely.selectFrom('tasks').select('id').where('cargo', 'like', `Импорт ${tag} %`).execute();
      expect(created).toHaveLength(18);
      const place = await app.server.db.kysely.selectFrom('places').select('id').where('name', '=', `Карьер Гранитный ${tag}`).executeTakeFirstOrThrow();
      const linked = await app.server.db.kysely.selectFrom('tasks').select('id').where('cargo', 'like', `Импорт ${tag} %`).where('loading_place_id', '=', place.id).execute();
      expect(linked).toHaveLength(18);

      // The same file again: the preview says so and the button stays off.
      await page.getByRole('button', { name: 'Загрузить ещё файл' }).click();
      await page.locator('input[type="file"]').setInputFiles(file);
      await page.getByText(/Этот файл уже загружен/).waitFor();
      expect(await page.getByRole('button', { name: /^Создать 18 задач/ }).isDisabled()).toBe(true);
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  // Issue 30 item 20: the template's own example row was refused as an error.
  it('the template, downloaded and chosen again as it is, shows its example row as the example: no error, nothing to create', async () => {
    const context = await newContext(app.browser, 'shared', 1440, { serviceWorkers: 'block' });
    const page = await signIn(context, app.url, DEMO.manager, DEMO_PASSWORD);
    const errors = trackErrors(page);
    await page.goto(`${app.url}/tasks/import`);
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Скачать шаблон' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('Шаблон задач.xlsx');
    await page.locator('input[type="file"]').setInputFiles(await download.path());
    await page.getByRole('heading', { name: /^Проверка файла/ }).waitFor();
    await page.getByText('пример из шаблона — не создаётся').waitFor();
    expect(await page.getByText(/с ошибками/).count()).toBe(0);
    expect(await page.locator('.import-row-bad').count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Создать 0 задач/ }).isDisabled()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });
});
