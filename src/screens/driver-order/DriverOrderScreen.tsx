/**
 * /tasks/driverTaskOrder: a driver's tasks of one day in the order they should drive them.
 * Drag and drop with a mouse or a finger, or the keyboard (Space to lift, arrows to move, Space to drop),
 * or the ↑/↓ buttons; «Сохранить порядок» sends PUT /tasks/drivers/{id}/tasks/order, and the driver's
 * /current-tasks shows exactly this order.
 */
import { useState } from 'react';
import { showToast } from '../../ui/toasts.ts';
import {
  DndContext,
  KeyboardSensor,
  PointerSensor,
  TouchSensor,
  closestCenter,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
} from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import type { Task } from '../../../contract/entities.ts';
import type { ScreenProps } from '../../app/nav.ts';
import { useGet, useSend } from '../../engine/api.ts';
import { useNeedsServer } from '../../engine/use-online.ts';
import { CacheNote } from '../../ui/CacheNote.tsx';
import { formatDate, formatQuantity } from '../../ui/format.ts';
import { NeedsServerHint } from '../../ui/NeedsServerHint.tsx';
import { Page } from '../../ui/Page.tsx';
import { Loading, Empty, QueryError } from '../../ui/states.tsx';
import { StatusBadge } from '../../ui/StatusBadge.tsx';
import { useUrlState } from '../../ui/console/use-url-state.ts';
import { isoDate } from '../../ui/format.ts';
import { moveItem, sameOrder } from './order.ts';
import './driver-order.css';
import { DateInput } from '../../ui/DateInput.tsx';

export function DriverOrderScreen({ title }: ScreenProps) {
  const [state, setState] = useUrlState({ driver: '', date: isoDate(new Date()) });
  const drivers = useGet('GET /users/drivers/');
  const driverId = Number(state.driver) || null;
  const list = drivers.data?.data ?? [];
  const chosen = list.find((d) => d.id === driverId);
  return (
    <Page title={title} aside={drivers.data && <CacheNote fromCache={drivers.data.fromCache} storedAt={drivers.data.storedAt} />}>
      <div className="order-filters">
        <label className="order-filter">
          Водитель
          <select aria-label="Водитель" value={state.driver} onChange={(event) => setState({ driver: event.target.value })}>
            <option value="">Выберите водителя</option>
            {list.map((d) => (
              <option key={d.id} value={d.id}>
                {d.name}
                {d.current_transport ? ` — ${d.current_transport.vehicle_number}` : ''}
              </option>
            ))}
          </select>
        </label>
        <label className="order-filter">
          Дата
          <DateInput aria-label="Дата" value={state.date} onValue={(date) => setState({ date })} />
        </label>
      </div>
      {drivers.isError && <QueryError query={drivers} />}
      {driverId === null ? (
        <Empty>Выберите водителя и дату, чтобы задать порядок его задач.</Empty>
      ) : (
        <DayOrder key={`${driverId}:${state.date}`} driverId={driverId} driverName={chosen?.name ?? `№${driverId}`} date={state.date} />
      )}
    </Page>
  );
}

function DayOrder({ driverId, driverName, date }: { driverId: number; driverName: string; date: string }) {
  const query = useGet('GET /tasks/drivers/:id/tasks', { id: driverId, date });
  const saveOrder = useSend('PUT /tasks/drivers/:id/tasks/order');
  const server = useNeedsServer();
  const tasks = query.data?.data.items ?? [];
  const serverIds = tasks.map((t) => t.id);
  const [draft, setDraft] = useState<number[] | null>(null);
  const [saving, setSaving] = useState(false);
  // A draft that lost or gained tasks (another tab changed them) starts again from the server's order.
  const ids = draft && sameOrder([...draft].sort(), [...serverIds].sort()) ? draft : serverIds;
  const dirty = !sameOrder(ids, serverIds);
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 150, tolerance: 6 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const name = (id: string | number) => byId.get(Number(id))?.cargo ?? `задача ${id}`;
  const position = (id: string | number) => ids.indexOf(Number(id)) + 1;
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Задача «${name(active.id)}» поднята, место ${position(active.id)} из ${ids.length}.`,
    onDragOver: ({ active, over }) => (over ? `Задача «${name(active.id)}» над местом ${position(over.id)}.` : `Задача «${name(active.id)}» вне списка.`),
    onDragEnd: ({ active, over }) => (over ? `Задача «${name(active.id)}» поставлена на место ${position(over.id)}.` : `Задача «${name(active.id)}» возвращена.`),
    onDragCancel: ({ active }) => `Перемещение отменено, задача «${name(active.id)}» на прежнем месте.`,
  };

  function onDragEnd({ active, over }: DragEndEvent): void {
    if (!over || active.id === over.id) return;
    setDraft(moveItem(ids, ids.indexOf(Number(active.id)), ids.indexOf(Number(over.id))));
  }

  async function save(): Promise<void> {
    setSaving(true);
    try {
      // Resolves once the tasks' queries are refetched, so the draft gives way to the saved order.
      await saveOrder.mutateAsync({ params: { id: driverId }, body: { task_ids: ids } });
      showToast('success', `Порядок задач на ${formatDate(date)} сохранён (водитель: ${driverName})`);
      setDraft(null);
    } catch (error) {
      showToast('error', `Порядок не сохранён: ${(error as Error).message}`);
    } finally {
      setSaving(false);
    }
  }

  if (query.isPending) return <Loading />;
  if (query.isError) return <QueryError query={query} />;
  if (tasks.length === 0) return <Empty>У водителя {driverName} нет текущих задач на {formatDate(date)}.</Empty>;

  return (
    <section aria-label={`Задачи на ${formatDate(date)}, водитель: ${driverName}`}>
      <p className="muted order-help">
        Перетащите задачи мышью или пальцем, или выберите задачу клавишей Tab, нажмите Пробел, двигайте стрелками и нажмите Пробел ещё раз.
        Водитель увидит задачи дня в этом порядке.
      </p>
      <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd} accessibility={{ announcements, screenReaderInstructions: { draggable: 'Чтобы переместить задачу, нажмите Пробел, двигайте стрелками вверх и вниз, Пробел — поставить, Escape — отменить.' } }}>
        <SortableContext items={ids} strategy={verticalListSortingStrategy}>
          <ol className="order-list">
            {ids.map((id, index) => {
              const task = byId.get(id);
              return task ? (
                <SortableTask
                  key={id}
                  task={task}
                  index={index}
                  count={ids.length}
                  onMove={(to) => setDraft(moveItem(ids, index, to))}
                />
              ) : null;
            })}
          </ol>
        </SortableContext>
      </DndContext>
      <div className="order-actions">
        <button type="button" className="button button-primary" disabled={!dirty || saving || server.offline} title={server.reason} onClick={() => void save()}>
          {saving ? 'Сохраняем…' : 'Сохранить порядок'}
        </button>
        <button type="button" className="button" disabled={!dirty || saving} onClick={() => setDraft(null)}>
          Сбросить
        </button>
        {dirty && <span className="order-dirty">Порядок изменён и ещё не сохранён</span>}
        <NeedsServerHint offline={server.offline} what="сохранить порядок" />
      </div>
    </section>
  );
}

function SortableTask({ task, index, count, onMove }: { task: Task; index: number; count: number; onMove: (to: number) => void }) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({ id: task.id });
  const association = task.driver_associations[0];
  return (
    <li
      ref={setNodeRef}
      className={isDragging ? 'order-item is-dragging' : 'order-item'}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      data-task-id={task.id}
    >
      <button type="button" className="order-handle" aria-label={`Переместить задачу «${task.cargo}», место ${index + 1} из ${count}`} {...attributes} {...listeners}>
        <span aria-hidden="true">⠿</span>
        <span className="order-position">{index + 1}</span>
      </button>
      <div className="order-body">
        <strong>{task.cargo}</strong>
        <span className="muted">
          №{task.id} · {task.loading_place} → {task.unloading_place} · {formatQuantity(association?.quantity ?? task.planned_quantity, task.unit)}
        </span>
      </div>
      {association && <StatusBadge status={association.status} kind="driver" />}
      <div className="order-buttons">
        <button type="button" className="button button-small" aria-label={`Выше: «${task.cargo}»`} disabled={index === 0} onClick={() => onMove(index - 1)}>
          ↑
        </button>
        <button type="button" className="button button-small" aria-label={`Ниже: «${task.cargo}»`} disabled={index === count - 1} onClick={() => onMove(index + 1)}>
          ↓
        </button>
      </div>
    </li>
  );
}
