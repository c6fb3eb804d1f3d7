/**
 * /tasks/manage: the dispatcher's task list (issue 8, CONSOLE.md). Filters, sort, tab and page live in the
 * URL; rows open the task form; status changes and deletes are per row or in bulk, and a bulk action reports
 * what happened to each task.
 */
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useLocation } from 'wouter';
import { toast } from 'react-toastify';
import type { Task, TaskStatus } from '../../../contract/entities.ts';
import type { ScreenProps } from '../../app/nav.ts';
import { invalidateAfter, sendOnce, useGet } from '../../engine/api.ts';
import { useEngineSnapshot } from '../../engine/store.ts';
import { useNeedsServer } from '../../engine/use-online.ts';
import { CacheNote } from '../../ui/CacheNote.tsx';
import { formatDate } from '../../ui/format.ts';
import { useConfirm } from '../../ui/ConfirmDialog.tsx';
import { NeedsServerHint } from '../../ui/NeedsServerHint.tsx';
import { Page } from '../../ui/Page.tsx';
import { ErrorState } from '../../ui/states.tsx';
import { TASK_STATUS_OPTIONS } from '../../ui/statuses.ts';
import { DataTable } from '../../ui/console/DataTable.tsx';
import { FilterBar } from '../../ui/console/FilterBar.tsx';
import { companyOptions, FilterSelect } from '../../ui/console/FilterSelect.tsx';
import { BulkBar, BulkResults } from '../../ui/console/BulkResults.tsx';
import { runBulk, type BulkOutcome } from '../../ui/console/bulk.ts';
import { useUrlState } from '../../ui/console/use-url-state.ts';
import { TaskCard, taskColumns } from './columns.tsx';
import { loadAllTasks } from './load-all.ts';
import { ExportSlot } from './ExportSlot.tsx';
import { duplicateBody, duplicateDrivers, LIST_DEFAULTS, listParams, nextOrdering, PAGE_SIZE, statusOf, taskLabel } from './task-list.ts';
import './tasks-manage.css';
import { DateInput } from '../../ui/DateInput.tsx';

const TABS = [
  { id: 'all', label: 'Все задачи' },
  { id: 'completed', label: 'Выполненные' },
] as const;

interface BulkRun {
  title: string;
  outcomes: BulkOutcome[];
}

export function TasksManageScreen({ title }: ScreenProps) {
  const [state, setState] = useUrlState(LIST_DEFAULTS);
  const [, navigate] = useLocation();
  const client = useQueryClient();
  const server = useNeedsServer();
  const [ask, confirmElement] = useConfirmPair();
  const superAdmin = useEngineSnapshot().auth.user?.role === 'super-admin';
  const page = Math.max(0, Number(state.page) || 0);
  const params = listParams(state, page);
  const query = useGet('GET /tasks/completed/', params, { placeholderData: (previous) => previous });
  const companies = useGet(superAdmin ? 'GET /companies/' : null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [bulk, setBulk] = useState<BulkRun | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [bulkStatus, setBulkStatus] = useState<TaskStatus>('completed');
  const [assignTo, setAssignTo] = useState('');
  const driverList = (useGet('GET /users/drivers/').data?.data ?? []).filter((d) => d.is_active !== false);
  const [copyDate, setCopyDate] = useState('');
  const [all, setAll] = useState<{ tasks: Task[]; key: string } | null>(null);
  const [loadingAll, setLoadingAll] = useState<{ loaded: number; total: number | null } | null>(null);

  const filterKey = JSON.stringify(listParams(state));
  const showingAll = all !== null && all.key === filterKey;
  const pageData = query.data?.data;
  const rows = showingAll ? all.tasks : (pageData?.items ?? []);
  const byId = new Map(rows.map((task) => [String(task.id), task]));
  const chosen = [...selected].map((id) => byId.get(id)).filter((task): task is Task => task !== undefined);

  function update(patch: Partial<typeof LIST_DEFAULTS>): void {
    setSelected(new Set());
    setState({ page: '0', ...patch });
  }

  /** After one or many writes: every task write makes the same areas stale (contract/calls/tasks.ts). */
  async function refresh(): Promise<void> {
    await invalidateAfter(client, 'POST', '/tasks/');
  }

  async function changeStatus(task: Task, status: TaskStatus): Promise<void> {
    try {
      await sendOnce('PUT /tasks/:id/', { params: { id: task.id }, body: { status } });
      toast.success(`Статус задачи ${taskLabel(task)} изменён`);
    } catch (error) {
      toast.error(`Статус не изменён: ${(error as Error).message}`);
    } finally {
      await refresh();
    }
  }

  async function remove(task: Task): Promise<void> {
    const yes = await ask({
      title: `Удалить задачу «${task.cargo}» на ${formatDate(task.date)}?`,
      message: <p>Задача №{task.id} и назначения водителей будут удалены. Задачу с отчётами удалить нельзя — её можно отменить.</p>,
      confirmLabel: 'Удалить',
      danger: true,
    });
    if (!yes) return;
    try {
      await sendOnce('DELETE /tasks/:id/', { params: { id: task.id } });
      toast.success(`Задача ${taskLabel(task)} удалена`);
    } catch (error) {
      toast.error(`Задача не удалена: ${(error as Error).message}`);
    } finally {
      await refresh();
    }
  }

  /** One task onto a driver through the board's call (its refusals are the board's: full, already on it, done). */
  async function assignDriverTo(task: Task, driverId: number): Promise<void> {
    const { results } = await sendOnce('POST /dispatch/assign', { body: { task_ids: [task.id], driver_id: driverId, date: task.date } });
    const result = results[0];
    if (!result?.ok) throw new Error(result?.detail ?? 'Водитель не назначен');
  }

  async function runOnSelected(titleText: string, action: (task: Task) => Promise<unknown>): Promise<void> {
    const items = chosen.map((task) => ({ ...task, id: String(task.id), label: taskLabel(task), task }));
    setBusy(titleText);
    try {
      const outcomes = await runBulk(items, (item) => action(item.task));
      setBulk({ title: titleText, outcomes });
      setSelected(new Set(outcomes.filter((o) => !o.ok).map((o) => o.id)));
    } finally {
      setBusy(null);
      await refresh();
    }
  }

  async function bulkDelete(): Promise<void> {
    const yes = await ask({
      title: `Удалить выбранные задачи (${chosen.length})?`,
      message: <p>Задачи с отчётами не удаляются — их можно отменить. Итог по каждой задаче будет показан.</p>,
      confirmLabel: 'Удалить',
      danger: true,
    });
    if (yes) await runOnSelected('Удаление', (task) => sendOnce('DELETE /tasks/:id/', { params: { id: task.id } }));
  }

  async function duplicate(task: Task): Promise<void> {
    await sendOnce('POST /tasks/', { body: { ...duplicateBody(task, copyDate), drivers: duplicateDrivers(task) } });
  }

  async function loadAll(): Promise<void> {
    setLoadingAll({ loaded: 0, total: null });
    try {
      const tasks = await loadAllTasks(listParams(state), (loaded, total) => setLoadingAll({ loaded, total }));
      setAll({ tasks, key: filterKey });
    } catch (error) {
      toast.error(`Не удалось загрузить все задачи: ${(error as Error).message}`);
    } finally {
      setLoadingAll(null);
    }
  }

  function rowActions(task: Task) {
    return (
      <div className="row-actions">
        <select
          aria-label={`Статус задачи №${task.id}`}
          className="row-status"
          value={task.status}
          disabled={server.offline}
          title={server.reason}
          onChange={(event) => void changeStatus(task, event.target.value as TaskStatus)}
        >
          {TASK_STATUS_OPTIONS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="button button-quiet button-small"
          disabled={server.offline}
          title={server.reason}
          aria-label={`Удалить задачу №${task.id}`}
          onClick={() => void remove(task)}
        >
          Удалить
        </button>
      </div>
    );
  }

  const columns = taskColumns(rowActions);
  const sortColumn = state.ordering.replace(/^-/, '');
  const total = pageData?.total ?? 0;
  const from = total === 0 ? 0 : page * PAGE_SIZE + 1;
  const to = Math.min(total, (page + 1) * PAGE_SIZE);

  return (
    <Page title={title} wide aside={query.data && <CacheNote fromCache={query.data.fromCache} storedAt={query.data.storedAt} />}>
      {confirmElement}
      <div className="tabs" role="tablist" aria-label="Списки задач">
        {TABS.map((tab) => (
          <button
            key={tab.id}
            type="button"
            role="tab"
            className="tab"
            aria-selected={state.tab === tab.id}
            onClick={() => update({ tab: tab.id, status: '', ordering: '-date' })}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <FilterBar
        search={state.search}
        onSearch={(search) => update({ search })}
        placeholder="Груз, место погрузки или выгрузки"
        actions={
          <>
            <ExportSlot params={listParams(state)} />
            <Link href="/tasks/create" className="button button-primary">
              Создать задачу
            </Link>
          </>
        }
      >
        <label>
          Статус
          <select aria-label="Статус" value={statusOf(state)} onChange={(event) => update({ status: event.target.value })}>
            <option value="all">Все статусы</option>
            {TASK_STATUS_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          С даты
          <DateInput aria-label="С даты" value={state.date_from} max={state.date_to || undefined} onValue={(date_from) => update({ date_from })} />
        </label>
        <label>
          По дату
          <DateInput aria-label="По дату" value={state.date_to} min={state.date_from || undefined} onValue={(date_to) => update({ date_to })} />
        </label>
        {superAdmin && (
          <FilterSelect
            label="Компания"
            value={state.company}
            onChange={(company) => update({ company })}
            options={companyOptions(companies.data?.data ?? [])}
            allLabel="Все компании"
          />
        )}
      </FilterBar>
      <NeedsServerHint offline={server.offline} what="менять задачи" />
      {bulk && <BulkResults title={bulk.title} outcomes={bulk.outcomes} onClose={() => setBulk(null)} />}
      <BulkBar count={chosen.length} onClear={() => setSelected(new Set())}>
        <label className="bulk-field">
          <span className="visually-hidden">Новый статус</span>
          <select value={bulkStatus} onChange={(event) => setBulkStatus(event.target.value as TaskStatus)}>
            {TASK_STATUS_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          className="button button-small"
          disabled={busy !== null || server.offline}
          onClick={() => void runOnSelected('Смена статуса', (task) => sendOnce('PUT /tasks/:id/', { params: { id: task.id }, body: { status: bulkStatus } }))}
        >
          Сменить статус
        </button>
        <label className="bulk-field">
          <span className="visually-hidden">Дата копий</span>
          <DateInput aria-label="Дата копий" value={copyDate} onValue={setCopyDate} />
        </label>
        <button
          type="button"
          className="button button-small"
          disabled={busy !== null || server.offline || !copyDate}
          title={copyDate ? undefined : 'Выберите дату для копий'}
          onClick={() => void runOnSelected('Дублирование', duplicate)}
        >
          Дублировать на дату
        </button>
        <label className="bulk-field">
          <span className="visually-hidden">Водитель</span>
          <select aria-label="Водитель для назначения" value={assignTo} onChange={(event) => setAssignTo(event.target.value)}>
            <option value="">Водитель…</option>
            {driverList.map((d) => (
              <option key={d.id} value={d.id}>
                {d.name}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          className="button button-small"
          disabled={busy !== null || server.offline || !assignTo}
          title={assignTo ? undefined : 'Выберите водителя'}
          onClick={() => void runOnSelected('Назначение водителя', (task) => assignDriverTo(task, Number(assignTo)))}
        >
          Назначить водителя
        </button>
        <button type="button" className="button button-small button-danger" disabled={busy !== null || server.offline} onClick={() => void bulkDelete()}>
          Удалить
        </button>
        {busy && <span aria-live="polite">{busy}…</span>}
      </BulkBar>
      {query.isError && !pageData ? (
        <ErrorState message={query.error.message} onRetry={() => void query.refetch()} />
      ) : (
        <DataTable
          label="Задачи"
          columns={columns}
          data={rows}
          getRowId={(task) => String(task.id)}
          sort={{ id: sortColumn, desc: state.ordering.startsWith('-') }}
          onSort={(id) => update({ ordering: nextOrdering(state.ordering, id) })}
          selected={selected}
          onSelectedChange={setSelected}
          onOpen={(task) => navigate(`/tasks/create?id=${task.id}`)}
          loading={query.isPending}
          empty={
            <p>
              Задач по этому фильтру нет. <Link href="/tasks/create">Создать задачу</Link>
            </p>
          }
          card={(task) => <TaskCard task={task} actions={rowActions(task)} />}
        />
      )}
      {/* An empty list has nothing to page through: no "0–0 из 0" with dead buttons. */}
      {(showingAll || total > 0) && (
      <div className="pager">
        {showingAll ? (
          <>
            <span>Загружены все задачи по фильтру: {all.tasks.length}</span>
            <button type="button" className="button button-small" onClick={() => setAll(null)}>
              Вернуться к страницам
            </button>
          </>
        ) : (
          <>
            <button type="button" className="button button-small" disabled={page === 0} onClick={() => setState({ page: String(page - 1) })}>
              ← Назад
            </button>
            <span>
              {from}–{to} из {total}
            </span>
            <button
              type="button"
              className="button button-small"
              disabled={pageData?.next_offset === null || pageData === undefined}
              onClick={() => setState({ page: String(page + 1) })}
            >
              Вперёд →
            </button>
            <button type="button" className="button button-small button-quiet" disabled={loadingAll !== null || total === 0} onClick={() => void loadAll()}>
              {loadingAll
                ? `Загружено ${loadingAll.loaded}${loadingAll.total !== null ? ` из ${loadingAll.total}` : ''}…`
                : 'Загрузить всё по фильтру'}
            </button>
          </>
        )}
      </div>
      )}
    </Page>
  );
}

/** useConfirm with the ask first: the screen calls it far more often than it renders it. */
function useConfirmPair() {
  const [element, ask] = useConfirm();
  return [ask, element] as const;
}
