/** The task list's columns (desktop) and card (phone): one description of a task row. */
import { createColumnHelper } from '@tanstack/react-table';
import { Link } from 'wouter';
import type { Task } from '../../../contract/entities.ts';
import { formatDate, formatMoney, formatQuantity, formatRate, formatTrips } from '../../ui/format.ts';
import { LoadProgress } from '../../ui/LoadProgress.tsx';
import { StatusBadge } from '../../ui/StatusBadge.tsx';
import { actionsColumn } from '../../ui/console/RowParts.tsx';

const column = createColumnHelper<Task>();

function Drivers({ task }: { task: Task }) {
  const live = task.driver_associations.filter((a) => a.status !== 'cancelled');
  if (live.length === 0) return <span className="muted">не назначены</span>;
  return (
    <ul className="task-drivers">
      {live.map((a) => (
        <li key={a.id}>
          {a.driver_name ?? `Водитель №${a.driver_id}`}
          <span className="muted">
            {' · '}
            {formatQuantity(a.delivered)} из {formatQuantity(a.share, task.unit)}
            {a.trips > 0 ? ` · ${formatTrips(a.trips)}` : ''}
            {a.finished_at !== null ? ' · завершил' : ''}
          </span>
          {a.last_report_id !== null && (
            <>
              {' · '}
              <Link href={`/reports/${a.last_report_id}`}>{a.report_count > 1 ? `отчёты (${a.report_count})` : 'отчёт'}</Link>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}

/** The task's one progress figure (server-computed): delivered of plan, a shortfall said in words. */
function TaskProgress({ task }: { task: Task }) {
  const { delivered, plan, shortfall } = task.progress;
  return <LoadProgress compact label={`Задача №${task.id}`} delivered={delivered} of={plan} unit={task.unit} shortfall={shortfall} />;
}

/** The route, and under it the customer the task names (issue 31: the lists show the registers' names). */
export function TaskRoute({ task }: { task: Task }) {
  return (
    <span className="task-route">
      <span>
        {task.loading_place} → {task.unloading_place}
      </span>
      {task.customer && <span className="muted">Заказчик: {task.customer.name}</span>}
    </span>
  );
}

export function taskColumns(actions: (task: Task) => React.ReactNode) {
  return [
    column.accessor('date', { header: 'Дата', enableSorting: true, cell: (c) => formatDate(c.getValue()) }),
    column.accessor('id', { header: '№', enableSorting: true, meta: { align: 'right' } }),
    column.accessor('cargo', {
      header: 'Груз',
      enableSorting: true,
      cell: (c) => (
        <Link href={`/tasks/create?id=${c.row.original.id}`} className="task-cargo">
          {c.getValue()}
        </Link>
      ),
    }),
    column.display({
      id: 'route',
      header: 'Маршрут',
      cell: (c) => <TaskRoute task={c.row.original} />,
    }),
    column.accessor('planned_quantity', {
      header: 'Выполнение',
      cell: (c) => <TaskProgress task={c.row.original} />,
    }),
    column.display({ id: 'drivers', header: 'Водители', cell: (c) => <Drivers task={c.row.original} /> }),
    column.accessor('rate', {
      header: 'Цена',
      meta: { align: 'right', label: 'Цена для заказчика за единицу' },
      cell: (c) => formatRate(c.getValue(), c.row.original.unit),
    }),
    column.display({
      id: 'margin',
      header: 'Маржа',
      meta: { align: 'right', label: 'Выручка минус оплата водителям, по принятым рейсам' },
      cell: (c) => <Margin task={c.row.original} />,
    }),
    column.accessor('status', { header: 'Статус', cell: (c) => <StatusBadge status={c.getValue()} /> }),
    actionsColumn(actions),
  ];
}

export function TaskCard({ task, actions }: { task: Task; actions: React.ReactNode }) {
  return (
    <div className="task-card">
      <div className="task-card-head">
        <strong>{task.cargo}</strong>
        <StatusBadge status={task.status} />
      </div>
      <div className="muted">
        №{task.id} · {formatDate(task.date)}
        {task.rate !== null && ` · ${formatRate(task.rate, task.unit)}`}
      </div>
      <TaskProgress task={task} />
      <TaskRoute task={task} />
      {task.money && task.money.approved > 0 && (
        <div>
          Маржа: <Margin task={task} />
        </div>
      )}
      <Drivers task={task} />
      <div className="task-card-actions" onClick={(event) => event.stopPropagation()}>
        {actions}
      </div>
    </div>
  );
}

/** The task's margin so far (approved loads): marked and explained when negative. */
function Margin({ task }: { task: Task }) {
  const m = task.money;
  if (!m || m.approved === 0) return <span className="muted">—</span>;
  const title = `Принято ${formatQuantity(m.approved, task.unit)}: выручка ${formatMoney(m.revenue)}, водителям ${formatMoney(m.pay)}`;
  return (
    <span className={m.margin < 0 ? 'money-negative' : undefined} title={m.margin < 0 ? `${title}. Убыток: ставка водителя выше цены задачи` : title}>
      {formatMoney(m.margin)}
    </span>
  );
}
