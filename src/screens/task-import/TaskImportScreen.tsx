/**
 * /tasks/import (docs/task-entry.md): a day's orders from an Excel file. Download the template; choose a file; every
 * row is shown with what it will create or why it cannot (the field and the reason); «Создать» makes the valid rows
 * in one transaction. The same file twice is refused by the server; the preview says so first. Places and the
 * customer are matched to the registers: a row naming an unknown one says what is missing, or, with «Создать
 * недостающие», the import creates the card (the preview names each).
 */
import { useRef, useState, type ChangeEvent } from 'react';
import { showToast } from '../../ui/toasts.ts';
import { Link } from 'wouter';
import { createColumnHelper } from '@tanstack/react-table';
import type { ScreenProps } from '../../app/nav.ts';
import type { ImportNewCard, ImportPreview, ImportPreviewRow, ImportResult } from '../../../contract/calls/tasks.ts';
import { downloadOnce, useGet, useSend } from '../../engine/api.ts';
import { useEngineSnapshot } from '../../engine/store.ts';
import { useNeedsServer } from '../../engine/use-online.ts';
import { Page } from '../../ui/Page.tsx';
import { DataTable } from '../../ui/console/DataTable.tsx';
import { FilterSelect, companyOptions } from '../../ui/console/FilterSelect.tsx';
import { NeedsServerHint } from '../../ui/NeedsServerHint.tsx';
import { Loading, ErrorState } from '../../ui/states.tsx';
import { formatDate, formatQuantity, formatRate, plural } from '../../ui/format.ts';
import { ROWS, ROWS_TO_DO, TASKS, TASKS_TO_DO } from '../../../contract/words.ts';
import { saveDownload } from '../../ui/download.ts';
import './task-import.css';


/** The file's bytes as base64, as the call carries them. */
function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(new Error('Не удалось прочитать файл с диска'));
    reader.readAsDataURL(file);
  });
}

const column = createColumnHelper<ImportPreviewRow>();
const columns = [
  column.accessor('row', { header: 'Строка', meta: { align: 'right' } }),
  column.display({ id: 'date', header: 'Дата', cell: ({ row }) => (row.original.task ? formatDate(row.original.task.date) : '—') }),
  column.display({ id: 'cargo', header: 'Груз', cell: ({ row }) => row.original.task?.cargo ?? '—' }),
  column.display({
    id: 'route',
    header: 'Маршрут',
    cell: ({ row }) => (row.original.task ? `${row.original.task.loading_place} → ${row.original.task.unloading_place}` : '—'),
  }),
  column.display({
    id: 'plan',
    header: 'Объём',
    meta: { align: 'right' },
    cell: ({ row }) => (row.original.task ? formatQuantity(row.original.task.planned_quantity, row.original.task.unit) : '—'),
  }),
  column.display({
    id: 'rate',
    header: 'Цена',
    meta: { align: 'right' },
    cell: ({ row }) => (row.original.task?.rate != null ? formatRate(row.original.task.rate, row.original.task.unit) : '—'),
  }),
  column.display({ id: 'customer', header: 'Заказчик', cell: ({ row }) => row.original.task?.customer_name ?? '—' }),
  column.display({ id: 'drivers', header: 'Водители', cell: ({ row }) => row.original.task?.driver_names.join(', ') || '—' }),
  column.display({ id: 'result', header: 'Результат', cell: ({ row }) => <RowResult row={row.original} /> }),
];

/** A new card as the preview names it: «место «Карьер Новый»», «контрагент «ООО Гранит» (ИНН 7707083893)». */
function cardText(card: ImportNewCard): string {
  return card.kind === 'place' ? `место «${card.name}»` : `контрагент «${card.name}» (ИНН ${card.inn ?? '—'})`;
}

function RowResult({ row }: { row: ImportPreviewRow }) {
  if (row.task) {
    return (
      <span className="import-ok">
        будет создана{row.creates.length > 0 ? ` · новые: ${row.creates.map(cardText).join(', ')}` : ''}
      </span>
    );
  }
  if (row.example) return <span className="muted">пример из шаблона — не создаётся</span>;
  return (
    <ul className="import-errors">
      {row.errors.map((error) => (
        <li key={`${error.field}:${error.detail}`}>
          <strong>{error.field}:</strong> {error.detail}
        </li>
      ))}
    </ul>
  );
}

/** A row with errors (the template's example row is none: it is shown, not created). */
const isBad = (row: ImportPreviewRow) => !row.task && !row.example;

function RowCard({ row }: { row: ImportPreviewRow }) {
  const task = row.task;
  return (
    <div className="import-card">
      <p className="import-card__head">
        Строка {row.row}
        {task ? ` · ${formatDate(task.date)}` : ''}
      </p>
      {task && (
        <p>
          <strong>{task.cargo}</strong>, {formatQuantity(task.planned_quantity, task.unit)} · {task.loading_place} → {task.unloading_place}
          {task.customer_name ? ` · ${task.customer_name}` : ''}
          {task.driver_names.length > 0 ? ` · ${task.driver_names.join(', ')}` : ''}
        </p>
      )}
      <RowResult row={row} />
    </div>
  );
}

export function TaskImportScreen({ title }: ScreenProps) {
  const user = useEngineSnapshot().auth.user;
  const superAdmin = user?.role === 'super-admin';
  const companies = useGet(superAdmin ? 'GET /companies/' : null).data?.data ?? [];
  const [company, setCompany] = useState('');
  const companyId = superAdmin ? (company ? Number(company) : (companies[0]?.id ?? null)) : undefined;
  const preview = useSend('POST /tasks/import/preview');
  const commit = useSend('POST /tasks/import');
  const server = useNeedsServer();
  const [file, setFile] = useState<{ name: string; base64: string } | null>(null);
  const [shown, setShown] = useState<ImportPreview | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [onlyBad, setOnlyBad] = useState(false);
  const [createMissing, setCreateMissing] = useState(false);
  const [downloading, setDownloading] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const body = (f: { name: string; base64: string }, create = createMissing) => ({
    file_name: f.name,
    file: f.base64,
    ...(companyId != null ? { company_id: companyId } : {}),
    ...(create ? { create_missing: true } : {}),
  });

  async function choose(event: ChangeEvent<HTMLInputElement>): Promise<void> {
    const chosen = event.target.files?.[0];
    if (!chosen) return;
    setShown(null);
    setResult(null);
    setFailure(null);
    try {
      const next = { name: chosen.name, base64: await readBase64(chosen) };
      setFile(next);
      await check(next);
    } catch (error) {
      setFailure((error as Error).message);
    }
  }

  async function check(chosen: { name: string; base64: string }, create = createMissing): Promise<void> {
    setFailure(null);
    try {
      setShown(await preview.mutateAsync({ body: body(chosen, create) }));
    } catch (error) {
      setFailure((error as Error).message);
    }
  }

  async function create(): Promise<void> {
    if (!file) return;
    setFailure(null);
    try {
      const done = await commit.mutateAsync({ body: body(file) });
      setResult(done);
      setShown(null);
      showToast('success', `Создано из файла «${file.name}»: ${plural(done.created, TASKS)}`);
    } catch (error) {
      setFailure((error as Error).message);
    }
  }

  async function downloadTemplate(): Promise<void> {
    setDownloading(true);
    try {
      const got = await downloadOnce('GET /tasks/import/template');
      if (got) saveDownload(got.blob, 'Шаблон задач.xlsx');
    } catch (error) {
      showToast('error', `Шаблон не скачан: ${(error as Error).message}`);
    } finally {
      setDownloading(false);
    }
  }

  function startOver(): void {
    setFile(null);
    setShown(null);
    setResult(null);
    setFailure(null);
    if (input.current) input.current.value = '';
  }

  const rows = shown ? (onlyBad ? shown.rows.filter(isBad) : shown.rows) : [];
  const firstDate = shown?.rows.find((r) => r.task)?.task?.date;
  return (
    <Page title={title} wide>
      <section className="card import-start" aria-labelledby="import-how">
        <h2 id="import-how">Файл с задачами</h2>
        <p className="muted">
          Колонки: дата, груз, место погрузки, место выгрузки, объём, единица, ставка (цена для заказчика), водители, комментарий, заказчик (ИНН или название). Места и
          заказчик берутся из «Мест» и «Контрагентов». Даты — «25.11.2026» или ячейкой даты, дробные — с запятой. До 2000 строк, до 5 МБ.
        </p>
        <div className="import-actions">
          <button type="button" className="button" disabled={downloading || server.offline} onClick={() => void downloadTemplate()}>
            {downloading ? 'Скачиваем...' : 'Скачать шаблон'}
          </button>
          {superAdmin && (
            <FilterSelect label="Компания" value={companyId == null ? '' : String(companyId)} onChange={(value) => setCompany(value)} options={companyOptions(companies)} />
          )}
          <label className="button button-primary import-file">
            {file ? 'Выбрать другой файл' : 'Выбрать файл .xlsx'}
            <input
              ref={input}
              type="file"
              accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
              disabled={server.offline || preview.isPending || commit.isPending}
              onChange={(event) => void choose(event)}
            />
          </label>
          {file && <span className="import-name">{file.name}</span>}
        </div>
        <NeedsServerHint offline={server.offline} what="загрузить файл" />
      </section>

      {preview.isPending && <Loading text="Читаем файл..." />}
      {failure && <ErrorState message={failure} {...(file && !shown ? { onRetry: () => void check(file) } : {})} />}

      {result && (
        <section className="card import-done" role="status" aria-labelledby="import-done-title">
          <h2 id="import-done-title">
            Создано: {plural(result.created, TASKS)}
          </h2>
          {result.created_cards.length > 0 && <p>Новые карточки: {result.created_cards.map(cardText).join(', ')}.</p>}
          {result.skipped > 0 && (
            <p>
              Пропущено с ошибками: {plural(result.skipped, ROWS)} — исправьте их в файле и загрузите только их.
            </p>
          )}
          <p className="import-actions">
            <Link href="/tasks/manage">Открыть «Управление задачами»</Link>
            <Link href="/dispatch">Открыть «Диспетчерскую»</Link>
            <button type="button" className="button" onClick={startOver}>
              Загрузить ещё файл
            </button>
          </p>
        </section>
      )}

      {shown && (
        <section aria-labelledby="import-preview-title">
          <div className="import-summary">
            <h2 id="import-preview-title">Проверка файла «{shown.file_name}»</h2>
            <p>
              {plural(shown.rows.length, ROWS)}: <span className="import-ok">будут созданы — {shown.ok}</span>
              {shown.bad > 0 && (
                <>
                  , <span className="import-bad">с ошибками — {shown.bad}</span>
                </>
              )}
            </p>
            {shown.creates.length > 0 && <p className="import-creates">Будут созданы карточки: {shown.creates.map(cardText).join(', ')}.</p>}
            {shown.imported_before && (
              <p className="import-warning" role="alert">
                Этот файл уже загружен {new Date(shown.imported_before.at).toLocaleString('ru-RU')}
                {shown.imported_before.by ? ` (${shown.imported_before.by})` : ''}: задач — {shown.imported_before.tasks}. Повторно его загрузить нельзя.
              </p>
            )}
            <div className="import-actions">
              <button
                type="button"
                className="button button-primary"
                disabled={shown.ok === 0 || shown.imported_before !== null || commit.isPending || server.offline}
                onClick={() => void create()}
              >
                {commit.isPending ? 'Создаём...' : `Создать ${plural(shown.ok, TASKS_TO_DO)}${shown.bad > 0 ? `, пропустить ${plural(shown.bad, ROWS_TO_DO)}` : ''}`}
              </button>
              <label className="field-check">
                <input
                  type="checkbox"
                  checked={createMissing}
                  disabled={preview.isPending || commit.isPending}
                  onChange={(event) => {
                    setCreateMissing(event.target.checked);
                    if (file) void check(file, event.target.checked);
                  }}
                />
                Создать недостающие
              </label>
              {shown.bad > 0 && (
                <label className="field-check">
                  <input type="checkbox" checked={onlyBad} onChange={(event) => setOnlyBad(event.target.checked)} />
                  Только строки с ошибками
                </label>
              )}
              {firstDate && <span className="muted">Первая дата: {formatDate(firstDate)}</span>}
            </div>
          </div>
          <DataTable
            label={`Строки файла «${shown.file_name}»`}
            columns={columns}
            data={rows}
            getRowId={(row) => String(row.row)}
            card={(row) => <RowCard row={row} />}
            rowClassName={(row) => (isBad(row) ? 'import-row-bad' : undefined)}
            empty="В файле нет строк с ошибками."
          />
        </section>
      )}
    </Page>
  );
}
