/**
 * What /tasks/manage does to the selected tasks: change their status, copy them to a date with their drivers,
 * put a driver on them (through the board's call), delete them. Each runs task by task and reports what
 * happened to each (BulkResults); the tasks it could not change stay selected.
 */
import { useState } from 'react';
import { TASK_STATUSES, type Task, type TaskStatus } from '../../../contract/entities.ts';
import { sendOnce, useGet } from '../../engine/api.ts';
import { DateInput } from '../../ui/DateInput.tsx';
import { TASK_STATUS_OPTIONS } from '../../ui/statuses.ts';
import { BulkBar } from '../../ui/console/BulkResults.tsx';
import { duplicateBody, duplicateDrivers } from './task-list.ts';
import { NamedOptions, Options } from '../../ui/Options.tsx';

/** One task onto a driver through the board's call (its refusals are the board's: full, already on it, done). */
async function assignDriverTo(task: Task, driverId: number): Promise<void> {
  const { results } = await sendOnce('POST /dispatch/assign', { body: { task_ids: [task.id], driver_id: driverId, date: task.date } });
  const result = results[0];
  if (!result?.ok) throw new Error(result?.detail ?? 'Водитель не назначен');
}

export interface TaskBulkBarProps {
  chosen: readonly Task[];
  onClear: () => void;
  /** Runs `action` on each chosen task under `title`; `busy` is the title of the one running. */
  run: (title: string, action: (task: Task) => Promise<unknown>) => Promise<void>;
  busy: string | null;
  offline: boolean;
  onDelete: () => void;
}

export function TaskBulkBar({ chosen, onClear, run, busy, offline, onDelete }: TaskBulkBarProps) {
  const [status, setStatus] = useState<TaskStatus>('completed');
  const [copyDate, setCopyDate] = useState('');
  const [assignTo, setAssignTo] = useState('');
  const drivers = (useGet(chosen.length > 0 ? 'GET /users/drivers/' : null).data?.data ?? []).filter((d) => d.is_active !== false);
  const idle = busy === null && !offline;
  return (
    <BulkBar count={chosen.length} onClear={onClear}>
      <label className="bulk-field">
        <span className="visually-hidden">Новый статус</span>
        <select value={status} onChange={(event) => setStatus(TASK_STATUSES.find((s) => s === event.target.value) ?? status)}>
          <Options options={TASK_STATUS_OPTIONS} />
        </select>
      </label>
      <button
        type="button"
        className="button button-small"
        disabled={!idle}
        onClick={() => void run('Смена статуса', (task) => sendOnce('PUT /tasks/:id/', { params: { id: task.id }, body: { status } }))}
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
        disabled={!idle || !copyDate}
        title={copyDate ? undefined : 'Выберите дату для копий'}
        onClick={() => void run('Дублирование', (task) => sendOnce('POST /tasks/', { body: { ...duplicateBody(task, copyDate), drivers: duplicateDrivers(task) } }))}
      >
        Дублировать на дату
      </button>
      <label className="bulk-field">
        <span className="visually-hidden">Водитель</span>
        <select aria-label="Водитель для назначения" value={assignTo} onChange={(event) => setAssignTo(event.target.value)}>
          <option value="">Водитель…</option>
          <NamedOptions items={drivers} />
        </select>
      </label>
      <button
        type="button"
        className="button button-small"
        disabled={!idle || !assignTo}
        title={assignTo ? undefined : 'Выберите водителя'}
        onClick={() => void run('Назначение водителя', (task) => assignDriverTo(task, Number(assignTo)))}
      >
        Назначить водителя
      </button>
      <button type="button" className="button button-small button-danger" disabled={!idle} onClick={onDelete}>
        Удалить
      </button>
      {busy && <span aria-live="polite">{busy}…</span>}
    </BulkBar>
  );
}
