/** The task list's columns and its phone card: the same facts in both. */
import type { ColumnDef } from '@tanstack/react-table';
import type { Task, TaskStatus } from '../../../contract/entities.ts';
import { formatDate, formatMoney, formatQuantity } from '../../ui/format.ts';
import { StatusBadge, TASK_STATUS_OPTIONS } from '../../ui/statuses.ts';
import { TaskReports } from './TaskReports.tsx';

export interface RowActions {
  disabled: boolean;
  reason: string | undefined;
  onStatus: (task: Task, status: TaskStatus) => void;
  onDelete: (task: Task) => void;
}

function reported(task: Task): number {
  return task.driver_associations.reduce((sum, a) => sum + (a.unloading_quantity ?? a.loading_quantity ?? a.quantity ?? 0), 0);
}

function Drivers({ task }: { task: Task }) {
  if (task.driver_associations.length === 0) return <span className="muted">не назначены</span>;
  return (
    <ul className="tasks-drivers">
      {task.driver_associations.map((a) => (
        <li key={a.id}>
          <span>{a.driver_name ?? `Водитель №${a.driver_id}`}</span>{' '}
          <span className="muted">
            {a.unloading_quantity !== null || a.loading_quantity !== null
              ? `сдал ${formatQuantity(a.unloading_quantity ?? a.loading_quantity, task.unit)}`
              : 'нет отчёта'}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** The task statuses as <option>s, for every status select of the screen. */
export function TaskStatusOptions() {
  return (
    <>
      {TASK_STATUS_OPTIONS.map(([value, label]) => (
        <option key={value} value={value}>
          {label}
        </option>
      ))}
    </>
  );
}

function Actions({ task, actions }: { task: Task; actions: RowActions }) {
  return (
    <div className="tasks-actions">
      <select
        aria-label={`Статус задачи «${task.cargo}»`}
        value={task.status}
        disabled={actions.disabled}
        title={actions.reason}
        onChange={(event) => actions.onStatus(task, event.target.value as TaskStatus)}
      >
        <TaskStatusOptions />
      </select>
      <button type="button" className="button button-quiet tasks-delete" disabled={actions.disabled} title={actions.reason} onClick={() => actions.onDelete(task)}>
        Удалить
      </button>
    </div>
  );
}

export function taskColumns(actions: RowActions): ColumnDef<Task, unknown>[] {
  return [
    { id: 'date', header: 'Дата', accessorFn: (t) => t.date, cell: ({ row }) => formatDate(row.original.date), meta: { className: 'tasks-col-date' } },
    { id: 'cargo', header: 'Груз', accessorFn: (t) => t.cargo, cell: ({ row }) => <strong>{row.original.cargo}</strong> },
    {
      id: 'route',
      header: 'Маршрут',
      enableSorting: false,
      cell: ({ row }) => (
        <span className="tasks-route">
          {row.original.loading_place} → {row.original.unloading_place}
        </span>
      ),
    },
    {
      id: 'quantity',
      header: 'План',
      enableSorting: false,
      meta: { numeric: true },
      cell: ({ row }) => formatQuantity(row.original.planned_quantity, row.original.unit),
    },
    {
      id: 'drivers',
      header: 'Водители',
      enableSorting: false,
      cell: ({ row }) => (
        <>
          <Drivers task={row.original} />
          <TaskReports associations={row.original.driver_associations} />
        </>
      ),
    },
    {
      id: 'rate',
      header: 'Ставка',
      enableSorting: false,
      meta: { numeric: true },
      cell: ({ row }) => formatMoney(row.original.rate, row.original.unit),
    },
    { id: 'status', header: 'Статус', enableSorting: false, cell: ({ row }) => <StatusBadge status={row.original.status} /> },
    { id: 'actions', header: 'Действия', enableSorting: false, cell: ({ row }) => <Actions task={row.original} actions={actions} /> },
  ];
}

export function TaskCard({ task, actions }: { task: Task; actions: RowActions }) {
  return (
    <div className="tasks-card">
      <div className="tasks-card__head">
        <strong>{task.cargo}</strong>
        <StatusBadge status={task.status} />
      </div>
      <p className="tasks-card__line">
        {formatDate(task.date)} · {formatQuantity(task.planned_quantity, task.unit)} · {formatMoney(task.rate, task.unit)}
      </p>
      <p className="tasks-card__line">
        {task.loading_place} → {task.unloading_place}
      </p>
      <Drivers task={task} />
      {task.driver_associations.length > 0 && (
        <p className="tasks-card__line muted">
          Сдано всего: {formatQuantity(reported(task), task.unit)}
        </p>
      )}
      <TaskReports associations={task.driver_associations} />
      <Actions task={task} actions={actions} />
    </div>
  );
}
