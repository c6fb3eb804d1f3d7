/**
 * /tasks/manage: every task of the company (a super-admin: all, with a company filter), or the completed ones
 * (SPEC §4, §9), 50 a page from GET /tasks/completed/, with filters, sort, page and tab in the URL. Rows open
 * the task form in edit mode; status change, delete and bulk actions report per task what happened.
 */
import { useMemo, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { useQueryClient } from '@tanstack/react-query';
import type { RowSelectionState } from '@tanstack/react-table';
import { toast } from 'react-toastify';
import type { Company, Page, Task, TaskStatus } from '../../../contract/entities.ts';
import type { ScreenProps } from '../../app/routes.tsx';
import { getEngine } from '../../engine/engine.ts';
import { unwrap, useApiQuery } from '../../engine/queries.ts';
import { useEngineSnapshot } from '../../engine/store.ts';
import { useNeedsServer } from '../../engine/use-online.ts';
import { CacheNote } from '../../ui/CacheNote.tsx';
import { useConfirm } from '../../ui/ConfirmDialog.tsx';
import { BulkBar, BulkResults, DataTable, FilterBar, orderingToSorting, runBulk, sortingToOrdering, useUrlState, type BulkReport } from '../../ui/console/index.ts';
import { formatDate, formatNumber } from '../../ui/format.ts';
import { listOf } from '../../ui/list.ts';
import { NeedsServerHint } from '../../ui/NeedsServerHint.tsx';
import { Page as ScreenPage } from '../../ui/Page.tsx';
import { ErrorState } from '../../ui/states.tsx';
import { TASK_STATUS_LABELS } from '../../ui/statuses.ts';
import { TaskCard, taskColumns, TaskStatusOptions, type RowActions } from './columns.tsx';
import { cleanParams, duplicateBody, filterParams, LIST_DEFAULTS, loadAllTasks, PAGE_SIZE, TASKS_PATH, taskLabel, type Fetch, type LoadProgress } from './task-list.ts';
import type { Params } from '../../../worker/api.ts';
import './tasks-manage.css';

const label = (task: Task) => taskLabel(task, formatDate);

async function send(method: 'PUT' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<unknown> {
  return unwrap(await getEngine().send(method, path, body));
}

interface LoadedAll {
  key: string;
  tasks: Task[];
  page: number;
}

export function TasksManageScreen({ title }: ScreenProps) {
  const [state, update] = useUrlState(LIST_DEFAULTS);
  const [, navigate] = useLocation();
  const client = useQueryClient();
  const server = useNeedsServer();
  const superAdmin = useEngineSnapshot().auth.user?.role === 'super-admin';
  const [confirmElement, confirm] = useConfirm();
  const [selection, setSelection] = useState<RowSelectionState>({});
  const [report, setReport] = useState<BulkReport | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [duplicateDate, setDuplicateDate] = useState('');
  const [progress, setProgress] = useState<LoadProgress | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [loaded, setLoaded] = useState<LoadedAll | null>(null);

  const filter = useMemo(() => cleanParams(filterParams(state)), [state]);
  const filterKey = JSON.stringify(filter);
  const params = useMemo(() => ({ ...filter, limit: PAGE_SIZE, offset: state.page * PAGE_SIZE }), [filter, state.page]);
  const query = useApiQuery<Page<Task>>(TASKS_PATH, params, { placeholderData: (previous) => previous });
  const companies = useApiQuery<Company[] | { items: Company[] }>(superAdmin ? '/companies/' : null);

  // "Load everything" shows its own result until the filter changes.
  const all = loaded && loaded.key === filterKey ? loaded : null;
  const pageTasks = all ? all.tasks.slice(all.page * PAGE_SIZE, (all.page + 1) * PAGE_SIZE) : (query.data?.data.items ?? []);
  const total = all ? all.tasks.length : (query.data?.data.total ?? 0);
  const page = all ? all.page : state.page;
  const pool = all ? all.tasks : pageTasks;
  const selected = pool.filter((task) => selection[String(task.id)]);

  function changeFilter(patch: Partial<typeof LIST_DEFAULTS>) {
    setSelection({});
    update({ ...patch, page: 0 });
  }
  function goToPage(next: number) {
    setSelection({});
    if (all) setLoaded({ ...all, page: next });
    else update({ page: next });
  }
  async function refresh() {
    await Promise.all([client.invalidateQueries({ queryKey: [TASKS_PATH] }), client.invalidateQueries({ queryKey: ['/tasks/bulk'] })]);
  }

  async function changeStatus(task: Task, status: TaskStatus) {
    try {
      await send('PUT', `/tasks/${task.id}/`, { status });
      patchLoaded([task.id], (t) => ({ ...t, status }));
      toast.success(`Статус задачи «${task.cargo}»: ${TASK_STATUS_LABELS[status]}`);
    } catch (error) {
      toast.error(`Статус не изменён: ${(error as Error).message}`);
    }
    await refresh();
  }

  async function remove(task: Task) {
    const yes = await confirm({
      title: `Удалить задачу «${task.cargo}» на ${formatDate(task.date)}?`,
      message: 'Задача и назначения водителей будут удалены.',
      confirmLabel: 'Удалить',
      danger: true,
    });
    if (!yes) return;
    try {
      await send('DELETE', `/tasks/${task.id}/`);
      dropLoaded([task.id]);
      toast.success(`Задача «${task.cargo}» удалена`);
    } catch (error) {
      toast.error(`Задача не удалена: ${(error as Error).message}`);
    }
    await refresh();
  }

  function patchLoaded(ids: number[], patch: (task: Task) => Task) {
    if (!all) return;
    const set = new Set(ids);
    setLoaded({ ...all, tasks: all.tasks.map((t) => (set.has(t.id) ? patch(t) : t)) });
  }
  function dropLoaded(ids: number[]) {
    if (!all) return;
    const set = new Set(ids);
    setLoaded({ ...all, tasks: all.tasks.filter((t) => !set.has(t.id)) });
  }

  async function bulk(title: string, action: (task: Task) => Promise<unknown>, after?: (doneIds: number[]) => void) {
    const items = selected.map((task) => ({ id: task.id, label: label(task), task }));
    setBusy(title);
    setReport(null);
    try {
      const outcomes = await runBulk(items, (item) => action(item.task));
      const done = outcomes.filter((o) => o.ok).map((o) => Number(o.id));
      after?.(done);
      // Refused tasks stay selected, so the user can look at them or try again.
      setSelection(Object.fromEntries(outcomes.filter((o) => !o.ok).map((o) => [String(o.id), true])));
      setReport({ title, outcomes });
    } finally {
      setBusy(null);
      await refresh();
    }
  }

  async function bulkStatus(status: TaskStatus) {
    await bulk(`Смена статуса на «${TASK_STATUS_LABELS[status]}»`, (task) => send('PUT', `/tasks/${task.id}/`, { status }), (ids) =>
      patchLoaded(ids, (t) => ({ ...t, status })),
    );
  }

  async function bulkDelete() {
    const names = selected.slice(0, 8).map(label);
    const yes = await confirm({
      title: `Удалить задачи (${selected.length})?`,
      message: (
        <ul className="tasks-confirm-list">
          {names.map((name) => (
            <li key={name}>{name}</li>
          ))}
          {selected.length > names.length && <li>и ещё {selected.length - names.length}</li>}
        </ul>
      ),
      confirmLabel: 'Удалить',
      danger: true,
    });
    if (!yes) return;
    await bulk('Удаление', (task) => send('DELETE', `/tasks/${task.id}/`), dropLoaded);
  }

  async function bulkDuplicate() {
    if (!duplicateDate) return;
    await bulk(`Дублирование на ${formatDate(duplicateDate)}`, (task) => send('POST', '/tasks/', duplicateBody(task, duplicateDate, superAdmin)));
  }

  async function loadAll() {
    setLoadError(null);
    setSelection({});
    setProgress({ phase: 'ids', loaded: 0, total: 0 });
    try {
      const fetch: Fetch = async <T,>(path: string, p: Params) => unwrap(await getEngine().get(path, p)).data as T;
      const tasks = await loadAllTasks(fetch, filter, setProgress);
      setLoaded({ key: filterKey, tasks, page: 0 });
    } catch (error) {
      setLoadError((error as Error).message);
    } finally {
      setProgress(null);
    }
  }

  const rowActions: RowActions = {
    disabled: server.offline || busy !== null,
    reason: server.reason,
    onStatus: (task, status) => void changeStatus(task, status),
    onDelete: (task) => void remove(task),
  };
  const columns = useMemo(() => taskColumns(rowActions), [rowActions.disabled, rowActions.reason]); // eslint-disable-line react-hooks/exhaustive-deps

  const sorting = orderingToSorting(state.ordering);
  const loading = !all && query.isPending;
  const companyList = listOf(companies.data?.data);
  const from = total === 0 ? 0 : page * PAGE_SIZE + 1;
  const to = Math.min(total, (page + 1) * PAGE_SIZE);

  const filtered = state.search !== '' || state.status !== 'all' || state.date_from !== '' || state.date_to !== '' || state.company !== 0;
  const empty = (
    <div className="tasks-empty">
      <p>Задач по этому фильтру нет.</p>
      <div className="tasks-empty__actions">
        <Link href="/tasks/create" className="button button-primary">
          Создать задачу
        </Link>
        {filtered && (
          <button type="button" className="button" onClick={() => changeFilter({ search: '', status: 'all', date_from: '', date_to: '', company: 0 })}>
            Сбросить фильтры
          </button>
        )}
      </div>
    </div>
  );

  return (
    <ScreenPage title={title} aside={query.data && !all && <CacheNote fromCache={query.data.fromCache} storedAt={query.data.storedAt} />}>
      <div className="console-page tasks-manage">
        <div className="tasks-tabs" role="tablist" aria-label="Задачи">
          {(
            [
              ['all', 'Все задачи'],
              ['completed', 'Выполненные'],
            ] as const
          ).map(([tab, text]) => (
            <button
              key={tab}
              type="button"
              role="tab"
              aria-selected={state.tab === tab}
              className={state.tab === tab ? 'tasks-tab is-active' : 'tasks-tab'}
              onClick={() => changeFilter({ tab })}
            >
              {text}
            </button>
          ))}
        </div>

        <FilterBar
          search={state.search}
          onSearch={(search) => changeFilter({ search })}
          searchLabel="Поиск по грузу и местам"
          placeholder="Груз или место"
          actions={
            <>
              {/* The export button (branch export-table) goes here, started with `filter`. */}
              <button type="button" className="button" onClick={() => void loadAll()} disabled={progress !== null}>
                Загрузить всё по фильтру
              </button>
              <Link href="/tasks/create" className="button button-primary">
                Создать задачу
              </Link>
            </>
          }
        >
          {state.tab !== 'completed' && (
            <label className="filter-bar__field">
              Статус
              <select aria-label="Статус" value={state.status} onChange={(event) => changeFilter({ status: event.target.value })}>
                <option value="all">Все статусы</option>
                <TaskStatusOptions />
              </select>
            </label>
          )}
          <label className="filter-bar__field">
            С даты
            <input type="date" value={state.date_from} max={state.date_to || undefined} onChange={(event) => changeFilter({ date_from: event.target.value })} />
          </label>
          <label className="filter-bar__field">
            По дату
            <input type="date" value={state.date_to} min={state.date_from || undefined} onChange={(event) => changeFilter({ date_to: event.target.value })} />
          </label>
          {superAdmin && (
            <label className="filter-bar__field">
              Компания
              <select aria-label="Компания" value={state.company} onChange={(event) => changeFilter({ company: Number(event.target.value) })}>
                <option value={0}>Все компании</option>
                {companyList.map((company) => (
                  <option key={company.id} value={company.id}>
                    {company.name}
                  </option>
                ))}
              </select>
            </label>
          )}
        </FilterBar>
        <NeedsServerHint offline={server.offline} what="менять задачи" />

        {progress && (
          <div className="tasks-progress" role="status">
            <span>
              {progress.phase === 'ids' ? 'Собираю список' : 'Загружаю задачи'}: {formatNumber(progress.loaded)}
              {progress.total ? ` из ${formatNumber(progress.total)}` : ''}
            </span>
            <progress max={progress.total || 1} value={progress.loaded} />
          </div>
        )}
        {loadError && <ErrorState message={`Не удалось загрузить всё: ${loadError}`} onRetry={() => void loadAll()} />}
        {all && (
          <div className="tasks-loaded" role="status">
            <span>Загружено всё по фильтру: {formatNumber(all.tasks.length)} задач.</span>
            {all.tasks.length > 0 && (
              <button type="button" className="button button-quiet" onClick={() => setSelection(Object.fromEntries(all.tasks.map((t) => [String(t.id), true])))}>
                Выбрать все {formatNumber(all.tasks.length)}
              </button>
            )}
            <button type="button" className="button button-quiet" onClick={() => setLoaded(null)}>
              Вернуться к страницам
            </button>
          </div>
        )}

        <BulkResults report={report} onClose={() => setReport(null)} />
        <BulkBar count={selected.length} onClear={() => setSelection({})}>
          <label className="tasks-bulk-field">
            <span className="visually-hidden">Сменить статус выбранных</span>
            <select
              value=""
              disabled={server.offline || busy !== null}
              title={server.reason}
              onChange={(event) => void bulkStatus(event.target.value as TaskStatus)}
            >
              <option value="" disabled>
                Сменить статус…
              </option>
              <TaskStatusOptions />
            </select>
          </label>
          <span className="tasks-bulk-field tasks-bulk-duplicate">
            <label>
              <span className="visually-hidden">Дата для копий</span>
              <input type="date" value={duplicateDate} onChange={(event) => setDuplicateDate(event.target.value)} />
            </label>
            <button type="button" className="button" disabled={!duplicateDate || server.offline || busy !== null} title={server.reason} onClick={() => void bulkDuplicate()}>
              Дублировать на дату
            </button>
          </span>
          <button type="button" className="button tasks-delete" disabled={server.offline || busy !== null} title={server.reason} onClick={() => void bulkDelete()}>
            Удалить
          </button>
          {busy && (
            <span role="status" className="muted">
              {busy}…
            </span>
          )}
        </BulkBar>

        {!all && query.isError && !query.data ? (
          <ErrorState message={query.error.message} onRetry={() => void query.refetch()} />
        ) : (
          <div className={!all && query.isPlaceholderData ? 'tasks-table is-stale' : 'tasks-table'} aria-busy={(!all && query.isPlaceholderData) || undefined}>
          <DataTable<Task>
            label={title}
            data={pageTasks}
            columns={columns}
            getRowId={(task) => String(task.id)}
            sorting={sorting}
            onSortingChange={(next) => {
              if (all) return;
              changeFilter({ ordering: sortingToOrdering(next) || LIST_DEFAULTS.ordering });
            }}
            selection={selection}
            onSelectionChange={setSelection}
            rowLabel={label}
            onOpen={(task) => navigate(`/tasks/create?id=${task.id}`)}
            loading={loading}
            empty={empty}
            card={(task) => <TaskCard task={task} actions={rowActions} />}
          />
          </div>
        )}

        {total > 0 && (
          <nav className="console-pager" aria-label="Страницы">
            <span>
              {formatNumber(from)}–{formatNumber(to)} из {formatNumber(total)}
            </span>
            <button type="button" className="button" disabled={page === 0} onClick={() => goToPage(page - 1)}>
              Назад
            </button>
            <button type="button" className="button" disabled={to >= total} onClick={() => goToPage(page + 1)}>
              Вперёд
            </button>
          </nav>
        )}
      </div>
      {confirmElement}
    </ScreenPage>
  );
}
