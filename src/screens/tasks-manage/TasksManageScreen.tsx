/**
 * /tasks/manage: the dispatcher's task list (CONSOLE.md). Filters, sort, tab and page live in the URL; rows
 * open the task form; status changes and deletes are per row or in bulk (TaskBulkBar), and a bulk action
 * reports what happened to each task. «Загрузить всё по фильтру» replaces the pages with every task the
 * filters leave.
 */
import { useQueryClient } from '@tanstack/react-query';
import { Link, useLocation } from 'wouter';
import { TASK_STATUSES, type Task, type TaskStatus } from '../../../contract/entities.ts';
import type { ScreenProps } from '../../app/nav.ts';
import { invalidateAfter, sendOnce, useGet, useSend } from '../../engine/api.ts';
import { useEngineSnapshot } from '../../engine/store.ts';
import { useNeedsServer } from '../../engine/use-online.ts';
import { formatDate } from '../../ui/format.ts';
import { NeedsServerHint } from '../../ui/NeedsServerHint.tsx';
import { Page } from '../../ui/Page.tsx';
import { TASK_STATUS_OPTIONS } from '../../ui/statuses.ts';
import { DateInput } from '../../ui/DateInput.tsx';
import { FilterBar } from '../../ui/console/FilterBar.tsx';
import { companyOptions, FilterSelect } from '../../ui/console/FilterSelect.tsx';
import { BulkResults } from '../../ui/console/BulkResults.tsx';
import { useBulk } from '../../ui/console/bulk.ts';
import { useListController } from '../../ui/console/list-controller.ts';
import { ListCacheNote, ListFrame } from '../../ui/console/ListFrame.tsx';
import { RowActions, RowButton, useRowWork } from '../../ui/console/RowParts.tsx';
import { ExportButton } from '../../parts/export/ExportButton.tsx';
import { saveTaskWaybills } from '../../parts/report/waybills.ts';
import { TaskCard, taskColumns } from './columns.tsx';
import { loadAllTasks } from './load-all.ts';
import { TaskBulkBar } from './TaskBulkBar.tsx';
import { exportFilters, LIST_DEFAULTS, listParams, scopeText, statusOf, taskLabel } from './task-list.ts';
import './tasks-manage.css';
import { Options } from '../../ui/Options.tsx';
import { Tabs } from '../../ui/Tabs.tsx';

const TABS = [
  { id: 'all', label: 'Все задачи' },
  { id: 'completed', label: 'Выполненные' },
] as const;

export function TasksManageScreen({ title }: ScreenProps) {
  const list = useListController({
    key: 'GET /tasks/completed/',
    defaults: LIST_DEFAULTS,
    paging: 'server',
    input: (state, paging) => ({ ...listParams(state), ...paging }),
    descFirst: ['date', 'id'],
    loadAll: { noun: 'задачи', load: loadAllTasks },
  });
  const { state, update, selected, setSelected } = list;
  const [, navigate] = useLocation();
  const client = useQueryClient();
  const server = useNeedsServer();
  const superAdmin = useEngineSnapshot().auth.user?.role === 'super-admin';
  const companies = useGet(superAdmin ? 'GET /companies/' : null);
  const work = useRowWork(server);
  // Every task write makes the same areas stale (contract/calls/tasks.ts): the row's calls refetch them when they
  // settle, a bulk action once at its end.
  const updateCall = useSend('PUT /tasks/:id/');
  const removeCall = useSend('DELETE /tasks/:id/');
  const bulk = useBulk(setSelected, () => invalidateAfter(client, 'POST', '/tasks/'));
  const byId = new Map(list.rows.map((task) => [String(task.id), task]));
  const chosen = [...selected].map((id) => byId.get(id)).filter((task): task is Task => task !== undefined);

  const remove = (task: Task) =>
    work.run(task.id, () => removeCall.mutateAsync({ params: { id: task.id } }), {
      confirm: {
        title: `Удалить задачу «${task.cargo}» на ${formatDate(task.date)}?`,
        message: <p>Задача №{task.id} и назначения водителей будут удалены. Задачу с отчётами удалить нельзя — её можно отменить.</p>,
        confirmLabel: 'Удалить',
        danger: true,
      },
      done: `Задача ${taskLabel(task)} удалена`,
      refused: 'Задача не удалена',
    });

  const runOnSelected = (titleText: string, action: (task: Task) => Promise<unknown>) =>
    bulk.run(
      titleText,
      chosen.map((task) => ({ id: String(task.id), label: taskLabel(task), task })),
      (item) => action(item.task),
    );

  async function bulkDelete(): Promise<void> {
    const yes = await work.ask({
      title: `Удалить выбранные задачи (${chosen.length})?`,
      message: <p>Задачи с отчётами не удаляются — их можно отменить. Итог по каждой задаче будет показан.</p>,
      confirmLabel: 'Удалить',
      danger: true,
    });
    if (yes) await runOnSelected('Удаление', (task) => sendOnce('DELETE /tasks/:id/', { params: { id: task.id } }));
  }

  function rowActions(task: Task) {
    const gate = work.gate(task.id);
    const changeTo = (status: TaskStatus) =>
      work.run(task.id, () => updateCall.mutateAsync({ params: { id: task.id }, body: { status } }), {
        done: `Статус задачи ${taskLabel(task)} изменён`,
        refused: 'Статус не изменён',
      });
    return (
      <RowActions>
        <select
          aria-label={`Статус задачи №${task.id}`}
          className="row-status"
          value={task.status}
          disabled={gate.disabled}
          title={gate.title}
          onChange={(event) => void changeTo(TASK_STATUSES.find((s) => s === event.target.value) ?? task.status)}
        >
          <Options options={TASK_STATUS_OPTIONS} />
        </select>
        {task.driver_associations.some((a) => a.report_count > 0) && (
          <RowButton label={`ТН (PDF): накладные рейсов задачи №${task.id}`} onClick={() => void saveTaskWaybills(task.id)}>
            ТН (PDF)
          </RowButton>
        )}
        <RowButton gate={gate} kind="quiet" label={`Удалить задачу №${task.id}`} onClick={() => void remove(task)}>
          Удалить
        </RowButton>
      </RowActions>
    );
  }

  const scope = scopeText(state);
  return (
    <Page title={title} wide aside={<ListCacheNote list={list} />}>
      {work.dialog}
      <Tabs label="Списки задач" tabs={TABS} selected={state.tab} onSelect={(tab) => update({ tab, status: '', ordering: '-date' })} />
      <FilterBar
        search={state.search}
        onSearch={(search) => update({ search })}
        placeholder="Груз, место, контрагент, водитель или №"
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
      {scope && (
        <p className="task-list-scope" role="status">
          {scope}{' '}
          <button type="button" className="button button-small button-quiet" onClick={() => update({ counterparty: '', place: '', of: '' })}>
            Показать все задачи
          </button>
        </p>
      )}
      <NeedsServerHint offline={server.offline} what="менять задачи" />
      {bulk.result && <BulkResults title={bulk.result.title} outcomes={bulk.result.outcomes} onClose={bulk.dismiss} />}
      <TaskBulkBar chosen={chosen} onClear={() => setSelected(new Set())} run={runOnSelected} busy={bulk.busy} offline={server.offline} onDelete={() => void bulkDelete()} />
      <ListFrame
        list={list}
        selectable
        pagerAlways
        dense
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
      />
    </Page>
  );
}
