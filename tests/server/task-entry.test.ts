/**
 * Faster task entry through the API (docs/task-entry.md): templates saved, replaced by name, deleted, scoped to the
 * company; «Повторять» — one task per date in one go; the Excel import — the template downloaded, a file of 20 rows
 * with 2 bad ones previewed (each reason named), 18 created in one transaction with their drivers, the same file
 * refused the second time, a file that is not Excel refused in Russian.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { call, makePeople, type People } from '../fixtures/accounts.ts';
import type { CreatedTasks, ImportPreview, ImportResult, TaskTemplate } from '../../contract/calls/tasks.ts';
import { parseTaskImport } from '../../server/tasks/import-xlsx.ts';
import { makeCounterparty, makePlace } from '../fixtures/registers.ts';
import { innCheckDigits } from '../../contract/requisites.ts';

const HEAD = ['дата', 'груз', 'место погрузки', 'место выгрузки', 'объём', 'единица', 'ставка', 'водители', 'комментарий'];

async function xlsx(rows: unknown[][]): Promise<string> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Задачи');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await book.xlsx.writeBuffer()).toString('base64');
}

describe.each(backends)('task entry ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let p: People;
  serveSuite(databaseUrl, (s) => void (server = s));
  beforeEach(async () => {
    p = await makePeople(server);
  });
  const as = (token: string) => ({ token });

  it('templates: saved, replaced by name, listed by name, deleted; another company sees none of them', async () => {
    const fields = { cargo: 'Щебень 20-40', loading_place: 'Карьер Гранитный', unloading_place: 'ЖК Северный', planned_quantity: 120, unit: 'т', rate: 450 };
    const first = await call<TaskTemplate>(server, 'POST', '/api/tasks/templates', { ...as(p.manager.token), body: { name: 'Гранитный → Северный', fields } });
    expect(first.status).toBe(201);
    expect(first.body.fields).toMatchObject(fields);
    const again = await call<TaskTemplate>(server, 'POST', '/api/tasks/templates', { ...as(p.admin.token), body: { name: 'Гранитный → Северный', fields: { ...fields, planned_quantity: 80 } } });
    expect(again.body.id).toBe(first.body.id);
    await call(server, 'POST', '/api/tasks/templates', { ...as(p.manager.token), body: { name: 'Арбуз', fields } });
    const list = await call<TaskTemplate[]>(server, 'GET', '/api/tasks/templates', as(p.manager.token));
    expect(list.body.map((t) => [t.name, t.fields.planned_quantity])).toEqual([['Арбуз', 120], ['Гранитный → Северный', 80]]);
    expect((await call<TaskTemplate[]>(server, 'GET', '/api/tasks/templates', as(p.otherManager.token))).body).toEqual([]);
    expect((await call(server, 'DELETE', `/api/tasks/templates/${first.body.id}`, as(p.otherManager.token))).status).toBe(404);
    expect((await call(server, 'DELETE', `/api/tasks/templates/${first.body.id}`, as(p.manager.token))).status).toBe(204);
    expect((await call<TaskTemplate[]>(server, 'GET', '/api/tasks/templates', as(p.manager.token))).body).toHaveLength(1);
    const bad = await call<{ detail: string }>(server, 'POST', '/api/tasks/templates', { ...as(p.manager.token), body: { name: '', fields } });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/название/);
  });

  it("templates keep each driver's share and own rate; a day's figures are not a template's", async () => {
    const drivers = [
      { id: p.driver.id, planned_quantity: 70.5, transport_rate: 480 },
      { id: p.driver2.id, planned_quantity: null, transport_rate: null },
    ];
    const fields = { cargo: 'Песок', loading_place: 'Карьер', unloading_place: 'Склад', planned_quantity: 120, unit: 'т', rate: 450, driver_ids: [p.driver.id, p.driver2.id], drivers };
    const saved = await call<TaskTemplate>(server, 'POST', '/api/tasks/templates', { ...as(p.manager.token), body: { name: 'Песок с долями', fields } });
    expect(saved.status).toBe(201);
    const [listed] = (await call<TaskTemplate[]>(server, 'GET', '/api/tasks/templates', as(p.manager.token))).body;
    expect(listed?.fields.drivers).toEqual(drivers);
    expect(listed?.fields.driver_ids).toEqual([p.driver.id, p.driver2.id]);
    // The quantities hauled and the part's status belong to one day's task: named, they are refused.
    const dayFigures = await call<{ detail: string }>(server, 'POST', '/api/tasks/templates', {
      ...as(p.manager.token),
      body: { name: 'С количеством', fields: { ...fields, drivers: [{ id: p.driver.id, quantity: 20 }] } },
    });
    expect(dayFigures.status).toBe(400);
  });

  it('«Повторять»: one task per date with the driver, all or none; repeated days and too many days refused', async () => {
    const task = { date: '2026-12-01', cargo: 'Песок', loading_place: 'Карьер', unloading_place: 'Стройка', planned_quantity: 40, driver_ids: [p.driver.id] };
    const dates = ['2026-12-03', '2026-12-01', '2026-12-02'];
    const res = await call<CreatedTasks>(server, 'POST', '/api/tasks/repeat', { ...as(p.manager.token), body: { task, dates } });
    expect(res.status).toBe(201);
    expect(res.body.company_id).toBe(p.company);
    const rows = await server.db.kysely.selectFrom('tasks').select(['id', 'date', 'status']).where('id', 'in', res.body.task_ids).orderBy('date').execute();
    expect(rows.map((r) => [r.date, r.status])).toEqual([['2026-12-01', 'in_progress'], ['2026-12-02', 'in_progress'], ['2026-12-03', 'in_progress']]);
    const drivers = await server.db.kysely.selectFrom('task_drivers').select('driver_id').where('task_id', 'in', res.body.task_ids).execute();
    expect(drivers.map((d) => d.driver_id)).toEqual([p.driver.id, p.driver.id, p.driver.id]);
    const twice = await call<{ detail: string }>(server, 'POST', '/api/tasks/repeat', { ...as(p.manager.token), body: { task, dates: ['2026-12-01', '2026-12-01'] } });
    expect(twice.status).toBe(400);
    expect(twice.body.detail).toMatch(/дни повторяются/);
    const many = Array.from({ length: 63 }, (_, i) => new Date(Date.UTC(2027, 0, 1 + i)).toISOString().slice(0, 10));
    expect((await call(server, 'POST', '/api/tasks/repeat', { ...as(p.manager.token), body: { task, dates: many } })).status).toBe(400);
  });

  it('import: template downloads; 20 rows with 2 bad previewed with reasons; 18 created at once; the same file refused again', async () => {
    const template = await server.app.inject({ method: 'GET', url: '/api/tasks/import/template', headers: p.manager.auth });
    expect(template.statusCode).toBe(200);
    expect(template.headers['content-type']).toContain('spreadsheetml');
    expect(await parseTaskImport(template.rawPayload, { drivers: [] })).toHaveLength(1);
    // Named in Russian, transliterated for clients that read only `filename` (exports/workbook.ts contentDisposition).
    expect(template.headers['content-disposition']).toBe(`attachment; filename="Shablon zadach.xlsx"; filename*=UTF-8''${encodeURIComponent('Шаблон задач.xlsx')}`);

    // The places are the company's (an unknown one is a row error: the registers' test below).
    await makePlace(server, p.company, { name: 'Карьер' });
    await makePlace(server, p.company, { name: 'Объект' });
    const rows: unknown[][] = [HEAD];
    for (let i = 1; i <= 20; i++) rows.push(['05.12.2026', `Импорт ${i}`, 'Карьер', 'Объект', '12,5', 'т', 450, i === 1 ? 'Иван Петров' : '', '']);
    rows[5]![0] = '35.12.2026';
    rows[9]![7] = 'Неизвестный Водитель';
    const file = await xlsx(rows);
    const body = { file_name: 'заявки.xlsx', file };

    const preview = await call<ImportPreview>(server, 'POST', '/api/tasks/import/preview', { ...as(p.manager.token), body });
    expect(preview.status).toBe(200);
    expect([preview.body.ok, preview.body.bad]).toEqual([18, 2]);
    const bad = preview.body.rows.filter((r) => r.task === null);
    expect(bad.map((r) => [r.row, r.errors[0]?.field])).toEqual([[6, 'дата'], [10, 'водители']]);
    expect(bad[1]!.errors[0]!.detail).toContain('Неизвестный Водитель');
    expect(preview.body.rows[0]!.task).toMatchObject({ date: '2026-12-05', planned_quantity: 12.5, driver_names: ['Иван Петров'] });
    expect(preview.body.imported_before).toBeNull();

    const done = await call<ImportResult>(server, 'POST', '/api/tasks/import', { ...as(p.manager.token), body });
    expect(done.status).toBe(201);
    expect([done.body.created, done.body.skipped, done.body.task_ids.length]).toEqual([18, 2, 18]);
    const created = await server.db.kysely.selectFrom('tasks').select(['cargo', 'status']).where('id', 'in', done.body.task_ids).orderBy('id').execute();
    expect(created[0]).toEqual({ cargo: 'Импорт 1', status: 'in_progress' });
    expect(created.filter((t) => t.status === 'open')).toHaveLength(17);

    const again = await call<{ detail: string }>(server, 'POST', '/api/tasks/import', { ...as(p.manager.token), body });
    expect(again.status).toBe(409);
    expect(again.body.detail).toMatch(/^Этот файл уже загружен .*задач — 18/);
    expect((await call<ImportPreview>(server, 'POST', '/api/tasks/import/preview', { ...as(p.manager.token), body })).body.imported_before?.tasks).toBe(18);
    // Another company may import the same file: it is theirs to load.
    expect((await call(server, 'POST', '/api/tasks/import/preview', { ...as(p.otherManager.token), body })).status).toBe(200);
  });

  // Issue 30 item 20: the template's own example row was refused («водитель «Петров Пётр» не найден»).
  it('import: the template uploaded as it was downloaded previews its example row as the example, no error; creating it is refused, nothing is made', async () => {
    const template = await server.app.inject({ method: 'GET', url: '/api/tasks/import/template', headers: p.manager.auth });
    const body = { file_name: 'Шаблон задач.xlsx', file: template.rawPayload.toString('base64') };
    const preview = await call<ImportPreview>(server, 'POST', '/api/tasks/import/preview', { ...as(p.manager.token), body });
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ ok: 0, bad: 0, rows: [{ row: 2, task: null, errors: [], example: true }] });

    const create = await call<{ detail: string }>(server, 'POST', '/api/tasks/import', { ...as(p.manager.token), body });
    expect(create.status).toBe(400);
    expect(create.body.detail).toBe('В файле только строка-пример из шаблона: впишите задачи ниже неё и загрузите файл снова.');
    expect(await server.db.kysely.selectFrom('tasks').select('id').where('cargo', '=', 'Щебень 20-40').execute()).toEqual([]);
  });

  it('import: places and the customer matched to the registers; unknown ones are row errors naming what is missing; «Создать недостающие» creates each once', async () => {
    const quarry = await makePlace(server, p.company, { name: 'Карьер «Гранит»' });
    const site = await makePlace(server, p.company, { name: 'ЖК Северный' });
    const knownInn = `770708389${innCheckDigits('770708389')}`;
    const known = await makeCounterparty(server, p.company, { name: 'ООО «Заказчик»', inn: knownInn, roles: ['customer'] });
    await makeCounterparty(server, p.company, { name: 'АО «Только отправитель»', roles: ['shipper'] });
    const newInn = `500109482${innCheckDigits('500109482')}`;
    const head = [...HEAD, 'заказчик'];
    const row = (cargo: string, from: string, to: string, customer: string) => ['05.12.2026', cargo, from, to, 10, 'т', 450, '', '', customer];
    const file = await xlsx([
      head,
      row('по ИНН', 'карьер «ГРАНИТ»', 'ЖК Северный', knownInn), // 2: all known (the place's name in another case)
      row('по названию', 'Карьер «Гранит»', 'ЖК Северный', 'ооо «заказчик»'), // 3
      row('новое место', 'Карьер «Новый»', 'ЖК Северный', ''), // 4
      row('новый заказчик', 'Карьер «Гранит»', 'Склад «Новый»', `ООО «Новый», ${newInn}`), // 5
      row('он же', 'Карьер «Новый»', 'Склад «Новый»', newInn), // 6: the same new cards again
      row('без ИНН', 'Карьер «Гранит»', 'ЖК Северный', 'ООО «Неизвестный»'), // 7
      row('не заказчик', 'Карьер «Гранит»', 'ЖК Северный', 'АО «Только отправитель»'), // 8
      row('плохой ИНН', 'Карьер «Гранит»', 'ЖК Северный', '7707083894'), // 9
    ]);
    const body = { file_name: 'реестры.xlsx', file };

    // Without the tick: the rows naming unknown cards say what is missing; nothing is created.
    const plain = await call<ImportPreview>(server, 'POST', '/api/tasks/import/preview', { ...as(p.manager.token), body });
    expect(plain.status).toBe(200);
    const byRow = (preview: ImportPreview, n: number) => preview.rows.find((r) => r.row === n)!;
    expect(byRow(plain.body, 2).task).toMatchObject({ loading_place_id: quarry, unloading_place_id: site, customer_id: known, customer_name: 'ООО «Заказчик»' });
    expect(byRow(plain.body, 3).task).toMatchObject({ customer_id: known });
    expect(byRow(plain.body, 4).errors).toEqual([{ field: 'место погрузки', detail: 'места погрузки «Карьер «Новый»» нет в «Местах» — добавьте его или отметьте «Создать недостающие»' }]);
    expect(byRow(plain.body, 5).errors.map((e) => e.field)).toEqual(['место выгрузки', 'заказчик']);
    expect(byRow(plain.body, 5).errors[1]!.detail).toBe(`контрагента «ООО «Новый»» нет в «Контрагентах» — добавьте его или отметьте «Создать недостающие»`);
    expect(byRow(plain.body, 8).errors).toEqual([{ field: 'заказчик', detail: '«АО «Только отправитель»» не отмечен как заказчик — отметьте роль в «Контрагентах»' }]);
    expect(byRow(plain.body, 9).errors).toEqual([{ field: 'заказчик', detail: 'ИНН: неверная контрольная цифра (7707083894)' }]);
    expect([plain.body.ok, plain.body.bad, plain.body.creates]).toEqual([2, 6, []]);

    // With it: the missing place and customer are listed once and created with the tasks.
    const withCreate = { ...body, create_missing: true };
    const preview = await call<ImportPreview>(server, 'POST', '/api/tasks/import/preview', { ...as(p.manager.token), body: withCreate });
    expect(byRow(preview.body, 4).creates).toEqual([{ kind: 'place', name: 'Карьер «Новый»', inn: null }]);
    expect(byRow(preview.body, 7).errors).toEqual([{ field: 'заказчик', detail: 'контрагента «ООО «Неизвестный»» нет — чтобы создать его, укажите и ИНН: «ООО «Неизвестный», 7707083893»' }]);
    expect(preview.body.creates).toEqual([
      { kind: 'place', name: 'Карьер «Новый»', inn: null },
      { kind: 'place', name: 'Склад «Новый»', inn: null },
      { kind: 'counterparty', name: 'ООО «Новый»', inn: newInn },
    ]);
    expect([preview.body.ok, preview.body.bad]).toEqual([5, 3]);
    expect(await server.db.kysely.selectFrom('places').select('id').where('company_id', '=', p.company).execute()).toHaveLength(2);

    const done = await call<ImportResult>(server, 'POST', '/api/tasks/import', { ...as(p.manager.token), body: withCreate });
    expect(done.status).toBe(201);
    expect([done.body.created, done.body.skipped, done.body.created_cards.length]).toEqual([5, 3, 3]);
    const places = await server.db.kysely.selectFrom('places').select(['id', 'name', 'radius_m']).where('company_id', '=', p.company).orderBy('id').execute();
    expect(places.map((pl) => pl.name)).toEqual(['Карьер «Гранит»', 'ЖК Северный', 'Карьер «Новый»', 'Склад «Новый»']);
    const fresh = await server.db.kysely.selectFrom('counterparties').selectAll().where('inn', '=', newInn).where('company_id', '=', p.company).executeTakeFirstOrThrow();
    expect(fresh).toMatchObject({ name: 'ООО «Новый»', legal_form: 'ul', roles: '["customer"]' });
    const tasks = await server.db.kysely
      .selectFrom('tasks')
      .select(['cargo', 'customer_id', 'loading_place_id', 'unloading_place_id'])
      .where('id', 'in', done.body.task_ids)
      .orderBy('id')
      .execute();
    const placeId = (name: string) => places.find((pl) => pl.name === name)!.id;
    expect(tasks).toEqual([
      { cargo: 'по ИНН', customer_id: known, loading_place_id: quarry, unloading_place_id: site },
      { cargo: 'по названию', customer_id: known, loading_place_id: quarry, unloading_place_id: site },
      { cargo: 'новое место', customer_id: null, loading_place_id: placeId('Карьер «Новый»'), unloading_place_id: site },
      { cargo: 'новый заказчик', customer_id: fresh.id, loading_place_id: quarry, unloading_place_id: placeId('Склад «Новый»') },
      { cargo: 'он же', customer_id: fresh.id, loading_place_id: placeId('Карьер «Новый»'), unloading_place_id: placeId('Склад «Новый»') },
    ]);
  });

  it('import: not an Excel file, an empty one and a broken upload get a clear 400; nothing is created', async () => {
    const before = (await server.db.kysely.selectFrom('tasks').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n;
    const csv = Buffer.from('дата;груз\n05.12.2026;Песок\n').toString('base64');
    const notExcel = await call<{ detail: string }>(server, 'POST', '/api/tasks/import/preview', { ...as(p.manager.token), body: { file_name: 'a.xlsx', file: csv } });
    expect(notExcel.status).toBe(400);
    expect(notExcel.body.detail).toMatch(/не похож на Excel/);
    const onlyHead = await call<{ detail: string }>(server, 'POST', '/api/tasks/import', { ...as(p.manager.token), body: { file_name: 'a.xlsx', file: await xlsx([HEAD]) } });
    expect(onlyHead.status).toBe(400);
    expect(onlyHead.body.detail).toMatch(/нет строк/);
    const broken = await call<{ detail: string }>(server, 'POST', '/api/tasks/import/preview', { ...as(p.manager.token), body: { file_name: 'a.xlsx', file: 'не base64!' } });
    expect(broken.status).toBe(400);
    expect(broken.body.detail).toMatch(/base64/);
    const after = (await server.db.kysely.selectFrom('tasks').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n;
    expect(Number(after)).toBe(Number(before));
  });
});
