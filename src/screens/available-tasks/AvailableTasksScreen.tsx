/**
 * Available tasks (/available-tasks): tasks of the driver's company that can still be taken, with a
 * debounced search and a date filter; 'Взять' asks first, then the task moves to current tasks.
 */
import { useState } from 'react';
import { showToast } from '../../ui/toasts.ts';
import type { Task } from '../../../contract/entities.ts';
import { useGet, useSend } from '../../engine/api.ts';
import { NEEDS_SERVER, useOnline } from '../../engine/use-online.ts';
import { useConfirm } from '../../ui/ConfirmDialog.tsx';
import { formatDate } from '../../ui/format.ts';
import { useDebounced } from '../../parts/driver/hooks.ts';
import { failureMessage } from '../../engine/send.ts';
import { Empty, Loaded } from '../../ui/states.tsx';
import { TaskSummary } from '../../parts/driver/TaskSummary.tsx';
import '../../parts/driver/driver.css';
import { DateInput } from '../../ui/DateInput.tsx';
import { TASK_LIST_STATES } from '../../parts/driver/own-tasks.ts';

const PAGE_SIZE = 30;

export function AvailableTasksScreen({ title = 'Доступные задачи' }: { title?: string }) {
  const [search, setSearch] = useState('');
  const [date, setDate] = useState('');
  const [limit, setLimit] = useState(PAGE_SIZE);
  const debouncedSearch = useDebounced(search.trim(), 400);
  const online = useOnline();
  const [confirmDialog, confirm] = useConfirm();

  const query = useGet('GET /tasks/available/', { limit, search: debouncedSearch, date }, { placeholderData: (previous) => previous });
  const accept = useSend('PUT /tasks/:id/accept/');

  async function take(task: Task) {
    const yes = await confirm({
      title: 'Взять задачу?',
      message: (
        <p>
          {task.cargo}, {formatDate(task.date)}: {task.loading_place} → {task.unloading_place}
        </p>
      ),
      confirmLabel: 'Взять',
    });
    if (!yes) return;
    try {
      await accept.mutateAsync({ params: { id: task.id } });
      showToast('success', 'Задача добавлена в текущие');
    } catch (error) {
      showToast('error', failureMessage(error, 'Нет подключения к сети. Задачу можно взять только онлайн.'));
    }
  }

  const page = query.data?.data;
  const tasks = page?.items ?? [];
  const filtered = Boolean(debouncedSearch || date);

  return (
    <section className="drv-screen" aria-labelledby="drv-available-title">
      <h1 id="drv-available-title" className="drv-screen__title">
        {title}
      </h1>

      <div className="drv-toolbar" role="search">
        <label className="drv-field drv-field--grow">
          <span className="drv-field__label">Поиск</span>
          <input
            type="search"
            className="drv-input"
            placeholder="Груз или место"
            value={search}
            onChange={(event) => {
              setSearch(event.target.value);
              setLimit(PAGE_SIZE);
            }}
          />
        </label>
        <label className="drv-field">
          <span className="drv-field__label">Дата</span>
          <DateInput
            className="drv-input"
            value={date}
            onValue={(next) => {
              setDate(next);
              setLimit(PAGE_SIZE);
            }}
          />
        </label>
        {filtered ? (
          <button
            type="button"
            className="drv-btn drv-btn--ghost drv-toolbar__reset"
            onClick={() => {
              setSearch('');
              setDate('');
              setLimit(PAGE_SIZE);
            }}
          >
            Сбросить
          </button>
        ) : null}
      </div>

      {!online ? (
        <p className="drv-notice">{NEEDS_SERVER}, чтобы взять задачу; список может быть устаревшим.</p>
      ) : null}
      <Loaded
        {...TASK_LIST_STATES}
        query={query}
        empty={
          tasks.length === 0 ? (
            <Empty tone="driver" title={filtered ? 'Ничего не найдено' : 'Свободных задач нет'}>
              {filtered ? 'Измените поиск или дату.' : 'Новые задачи появятся здесь, когда их создаст менеджер.'}
            </Empty>
          ) : null
        }
      >
        {() => (
          <>
            <ul className="drv-grid drv-grid--even" aria-busy={query.isFetching}>
              {tasks.map((task) => {
                const busy = accept.isPending && accept.variables?.params.id === task.id;
                return (
                  <li key={task.id} className="drv-card">
                    <TaskSummary task={task} headingLevel={2} badge={<FreePlaces task={task} />} guide="folded" />
                    <div className="drv-card__actions">
                      <button
                        type="button"
                        className="drv-btn drv-btn--primary drv-btn--wide"
                        disabled={!online || accept.isPending}
                        title={online ? undefined : NEEDS_SERVER}
                        onClick={() => void take(task)}
                      >
                        {busy ? 'Берём...' : 'Взять'}
                      </button>
                    </div>
                  </li>
                );
              })}
            </ul>
            {page && page.next_offset !== null ? (
              <button
                type="button"
                className="drv-btn drv-btn--ghost drv-btn--wide drv-more"
                disabled={query.isFetching}
                onClick={() => setLimit((current) => current + PAGE_SIZE)}
              >
                {query.isFetching ? 'Загрузка...' : `Показать ещё (показано ${tasks.length} из ${page.total})`}
              </button>
            ) : null}
          </>
        )}
      </Loaded>
      {confirmDialog}
    </section>
  );
}

function FreePlaces({ task }: { task: Task }) {
  if (task.max_drivers === null) return null;
  // The server counts every driver on the task; the driver's own view of it lists only their own place.
  const free = Math.max(0, task.max_drivers - (task.taken_places ?? task.driver_associations.length));
  return <span className="drv-badge">свободно мест: {free}</span>;
}
