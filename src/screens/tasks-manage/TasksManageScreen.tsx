/**
 * /tasks/manage: the dispatcher's task list (CONSOLE.md). Filters, sort, tab and page live in the URL; rows
 * open the task form; status changes and deletes are per row or in bulk (TaskBulkBar), and a bulk action
 * reports what happened to each task. «Загрузить всё по фильтру» replaces the pages with every task the
 * filters leave.
 */
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useLocation } from 'wouter';
import { TASK_STATUSES, type Task, type TaskStatus } from '../../../contract/entities.ts';
import type { ScreenProps } from '../../app/nav.ts';
import { invalidateAfter, sendOnce, useGet } from '../../engine/api.ts';
import { useEngineSnapshot } from '../../engine/store.ts';
import { useNeedsServer } from '../../engine/use-online.ts';
import { formatDate } from '../../ui/format.ts';
import { useConfirm } from '../../ui/ConfirmDialog.tsx';
import { NeedsServerHint } from '../../ui/NeedsServerHint.tsx';
import { Page } from '../../ui/Page.tsx';
import { showToast } from '../../ui/toasts.ts';
import { TASK_STATUS_OPTIONS } from '../../ui/statuses.ts';
import { DateInput } from '../../ui/DateInput.tsx';
import { FilterBar } from '../../ui/console/FilterBar.tsx';
import { companyOptions, FilterSelect } from '../../ui/console/FilterSelect.tsx';
import { BulkResults } from '../../ui/console/BulkResults.tsx';
import { runBulk, type BulkOutcome } from '../../ui/console/bulk.ts';
import { useListController } from '../../ui/console/list-controller.ts';
import { ListCacheNote, ListFrame } from '../../ui/console/ListFrame.tsx';
import { RowActions, RowButton } from '../../ui/console/RowParts.tsx';
import { ExportButton } from '../../parts/export/ExportButton.tsx';
import { TaskCard, taskColumns } from './columns.tsx';
import { loadAllTasks } from './load-all.ts';
import { TaskBulkBar } from './TaskBulkBar.tsx';
import { exportFilters, LIST_DEFAULTS, listParams, statusOf, taskLabel } from './task-list.ts';
import './tasks-manage.css';
import { Options } from '../../ui/Options.tsx';
import { Tabs } from '../../ui/Tabs.tsx';

const TABS = [
  { id: 'all', label: 'Все задачи' },
  { id: 'completed', label: 'Выполненные' },
] as const;

interface BulkRun {
  title: string;
  outcomes: BulkOutcome[];
}

export function TasksManageScreen({ title }: ScreenProps) {
  const list = useListController({
    key: 'GET /tasks/completed/',
    defaults: LIST_DEFAULTS,
    paging: 'server',
    input: (state, paging) => ({ ...listParams(state), ...paging }),
    descFirst: ['date', 'id'],
  });
  const { state, update, selected, setSelected } = list;
  const [, navigate] = useLocation();
  const client = useQueryClient();
  const server = useNeedsServer();
  const [confirmElement, ask] = useConfirm();
  const superAdmin = useEngineSnapshot().auth.user?.role === 'super-admin';
  const companies = useGet(superAdmin ? 'GET /companies/' : null);
  const [bulk, setBulk] = useState<BulkRun | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [all, setAll] = useState<{ tasks: Task[]; key: string } | null>(null);
  const [loadingAll, setLoadingAll] = useState<{ loaded: number; total: number | null } | null>(null);

  const filterKey = JSON.stringify(listParams(state));
  const showingAll = all !== null && all.key === filterKey;
  const rows = showingAll ? all.tasks : list.rows;
  const byId = new Map(rows.map((task) => [String(task.id), task]));
  const chosen = [...selected].map((id) => byId.get(id)).filter((task): task is Task => task !== undefined);

  /** After one or many writes: every task write makes the same areas stale (contract/calls/tasks.ts). */
  async function refresh(): Promise<void> {
    await invalidateAfter(client, 'POST', '/tasks/');
  }

  /** A row's write: its toast says what happened, or why not; the list refetches either way. */
  async function write(done: string, refused: string, work: () => Promise<unknown>): Promise<void> {
    try {
      await work();
      showToast('success', done);
    } catch (error) {
      showToast('error', `${refused}: ${(error as Error).message}`);
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
    if (yes) await write(`Задача ${taskLabel(task)} удалена`, 'Задача не удалена', () => sendOnce('DELETE /tasks/:id/', { params: { id: task.id } }));
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

  async function loadAll(): Promise<void> {
    setLoadingAll({ loaded: 0, total: null });
    try {
      const tasks = await loadAllTasks(listParams(state), (loaded, total) => setLoadingAll({ loaded, total }));
      setAll({ tasks, key: filterKey });
    } catch (error) {
      showToast('error', `Не удалось загрузить все задачи: ${(error as Error).message}`);
    } finally {
      setLoadingAll(null);
    }
  }

  function rowActions(task: Task) {
    const changeTo = (status: TaskStatus) =>
      write(`Статус задачи ${taskLabel(task)} изменён`, 'Статус не изменён', () => sendOnce('PUT /tasks/:id/', { params: { id: task.id }, body: { status } }));
    return (
      <RowActions>
        <select
          aria-label={`Статус задачи №${task.id}`}
          className="row-status"
          value={task.status}
          disabled={server.offline}
          title={server.reason}
          onChange={(event) => void changeTo(TASK_STATUSES.find((s) => s === event.target.value) ?? task.status)}
        >
          <Options options={TASK_STATUS_OPTIONS} />
        </select>
        <RowButton gate={{ disabled: server.offline, title: server.reason }} kind="quiet" label={`Удалить задачу №${task.id}`} onClick={() => void remove(task)}>
          Удалить
        </RowButton>
      </RowActions>
    );
  }

  return (
    <Page title={title} wide aside={<ListCacheNote list={list} />}>
      {confirmElement}
      <Tabs label="Списки задач" tabs={TABS} selected={state.tab} onSelect={(tab) => update({ tab, status: '', ordering: '-date' })} />
      <FilterBar
        search={state.search}
        onSearch={(search) => update({ search })}
        placeholder="Груз, место погрузки или выгрузки"
        actions={
          <>
            <ExportButton filters={exportFilters(listParams(state))} />
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
            <Options options={TASK_STATUS_OPTIONS} />
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
      <TaskBulkBar chosen={chosen} onClear={() => setSelected(new Set())} run={runOnSelected} busy={busy} offline={server.offline} onDelete={() => void bulkDelete()} />
      <ListFrame
        list={{ ...list, rows, paged: !showingAll && list.total > 0 }}
        selectable
        pagerAlways
        label="Задачи"
        columns={taskColumns(rowActions)}
        getRowId={(task) => String(task.id)}
        onOpen={(task) => navigate(`/tasks/create?id=${task.id}`)}
        empty={
          <p>
            Задач по этому фильтру нет. <Link href="/tasks/create">Создать задачу</Link>
          </p>
        }
        card={(task) => <TaskCard task={task} actions={rowActions(task)} />}
        pagerExtra={
          <button type="button" className="button button-small button-quiet" disabled={loadingAll !== null} onClick={() => void loadAll()}>
            {loadingAll ? `Загружено ${loadingAll.loaded}${loadingAll.total !== null ? ` из ${loadingAll.total}` : ''}…` : 'Загрузить всё по фильтру'}
          </button>
        }
      />
      {showingAll && (
        <div className="pager">
          <span>Загружены все задачи по фильтру: {all.tasks.length}</span>
          <button type="button" className="button button-small" onClick={() => setAll(null)}>
            Вернуться к страницам
          </button>
        </div>
      )}
    </Page>
  );
}
