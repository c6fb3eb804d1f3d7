/**
 * The board's columns and cards (/dispatch, docs/dispatch.md): a driver's column — his trip state, vehicle, phone,
 * the day's share and delivered, his last report — or «Без водителя», each a drop target holding its sortable cards.
 */
import { useEffect, useState, type KeyboardEvent } from 'react';
import { useDroppable } from '@dnd-kit/core';
import { SortableContext, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import type { BoardDriver } from '../../../contract/calls/dispatch.ts';
import type { Task } from '../../../contract/entities.ts';
import type { DriverTripState } from '../../../contract/trips.ts';
import { TASKS } from '../../../contract/words.ts';
import { formatQuantity, plural } from '../../ui/format.ts';
import { StatusBadge } from '../../ui/StatusBadge.tsx';
import { cardKey, type ColumnKey } from './columns.ts';
import { boardStateText } from './trip-state.ts';

export interface ColumnProps {
  column: ColumnKey;
  driver: BoardDriver | null;
  taskIds: number[];
  tasks: Map<number, Task>;
  selected: Set<string>;
  onKey: (event: KeyboardEvent<HTMLElement>, column: ColumnKey, taskId: number) => void;
  onSelect: (card: string, add: boolean) => void;
}

export function Column({ column, driver, taskIds, tasks, selected, onKey, onSelect }: ColumnProps) {
  const { setNodeRef, isOver } = useDroppable({ id: column });
  const title = driver ? driver.name : 'Без водителя';
  return (
    <section ref={setNodeRef} className={`dispatch-column${isOver ? ' is-over' : ''}${driver ? '' : ' dispatch-column--none'}`} aria-label={`Колонка: ${title}`}>
      <header className="dispatch-column__head">
        <strong>{title}</strong>
        {driver ? (
          <>
            {/* Keyed by the state: a new state starts its own clock. */}
            <TripStateBadge key={`${driver.trip_state.state}:${driver.trip_state.since ?? ''}`} trip={driver.trip_state} />
            {driver.no_trip_sheet ? (
              <span className="dispatch-trip dispatch-trip--no_sheet" title="Компания требует путевой лист: первая отметка рейса не будет принята">
                нет путевого листа
              </span>
            ) : null}
            <span className="muted">
              {driver.vehicle ? `${driver.vehicle.number}${driver.vehicle.capacity ? ` · ${formatQuantity(driver.vehicle.capacity, 'т')}` : ''}` : 'без машины'}
              {driver.phone ? (
                <>
                  {' · '}
                  <a href={`tel:${driver.phone.replace(/[^\d+]/g, '')}`}>{driver.phone}</a>
                </>
              ) : null}
            </span>
            <span className="muted">
              {plural(driver.task_ids.length, TASKS)} · {formatQuantity(driver.delivered)} из {formatQuantity(driver.planned, 'т')}
              {driver.last_report_at ? ` · отчёт ${new Date(driver.last_report_at).toLocaleTimeString('ru-RU', { hour: '2-digit', minute: '2-digit' })}` : ''}
            </span>
          </>
        ) : (
          <span className="muted">{taskIds.length === 0 ? 'все задачи дня назначены' : plural(taskIds.length, TASKS)}</span>
        )}
      </header>
      <SortableContext items={taskIds.map((id) => cardKey(column, id))} strategy={verticalListSortingStrategy}>
        <ol className="dispatch-cards">
          {taskIds.map((id) => {
            const task = tasks.get(id);
            return task ? <Card key={id} column={column} task={task} driverId={driver?.id ?? null} selected={selected.has(cardKey(column, id))} onKey={onKey} onSelect={onSelect} /> : null;
          })}
        </ol>
      </SortableContext>
      {taskIds.length === 0 && driver && <p className="dispatch-empty">Перетащите сюда задачу</p>}
    </section>
  );
}

/**
 * The driver's trip state and since when; «нет данных N мин» counts on by the minute (the board itself refreshes
 * on the change feed when a step arrives).
 */
function TripStateBadge({ trip }: { trip: DriverTripState }) {
  const [now, setNow] = useState(() => Date.now());
  const ticking = trip.state === 'no_data';
  useEffect(() => {
    if (!ticking) return;
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, [ticking]);
  return (
    <span className={`dispatch-trip dispatch-trip--${trip.state}`} data-trip-state={trip.state}>
      {boardStateText(trip, now)}
    </span>
  );
}

function Card({ column, task, driverId, selected, onKey, onSelect }: { column: ColumnKey; task: Task; driverId: number | null; selected: boolean; onKey: ColumnProps['onKey']; onSelect: ColumnProps['onSelect'] }) {
  const key = cardKey(column, task.id);
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: key });
  const part = driverId === null ? null : task.driver_associations.find((a) => a.driver_id === driverId);
  // The list item is the sortable node; the card inside it is the button (a list holds only list items). Its name
  // is all it shows — number, status, cargo, route, share — and aria-pressed says whether it is selected.
  return (
    <li ref={setNodeRef} className="dispatch-cards__item" style={{ transform: CSS.Transform.toString(transform), transition }}>
      <div
        ref={setActivatorNodeRef}
        className={`dispatch-card${selected ? ' is-selected' : ''}${isDragging ? ' is-dragging' : ''}`}
        {...attributes}
        {...listeners}
        aria-roledescription="карточка задачи"
        aria-pressed={selected}
        data-task-id={task.id}
        data-card={key}
        onKeyDown={(event) => onKey(event, column, task.id)}
        onClick={(event) => onSelect(key, event.ctrlKey || event.metaKey || event.shiftKey)}
      >
        <div className="dispatch-card__top">
          <span className="muted">№{task.id}</span>
          <StatusBadge status={part ? part.status : task.status} kind={part ? 'driver' : undefined} />
        </div>
        <strong className="dispatch-card__cargo">{task.cargo}</strong>
        <span className="dispatch-card__route">
          {task.loading_place} → {task.unloading_place}
        </span>
        {task.customer && <span className="muted">{task.customer.name}</span>}
        <span className="muted">
          {part ? `доля ${formatQuantity(part.share, task.unit)} · ${formatQuantity(part.delivered)} из ${formatQuantity(part.share, task.unit)}` : `план ${formatQuantity(task.planned_quantity, task.unit)} · водителей ${task.taken_places}${task.max_drivers ? ` из ${task.max_drivers}` : ''}`}
        </span>
      </div>
    </li>
  );
}
