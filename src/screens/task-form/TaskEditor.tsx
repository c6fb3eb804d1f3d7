/** The task form in edit mode: only what changed is sent, with the version it was loaded at. */
import { useState } from 'react';
import { useLocation } from 'wouter';
import { showToast } from '../../ui/toasts.ts';
import type { Task } from '../../../contract/entities.ts';
import { getOnce, sendOnce } from '../../engine/api.ts';
import { useEngineSnapshot } from '../../engine/store.ts';
import { useNeedsServer } from '../../engine/use-online.ts';
import { useConfirm } from '../../ui/ConfirmDialog.tsx';
import { formatDate } from '../../ui/format.ts';
import { NeedsServerHint } from '../../ui/NeedsServerHint.tsx';
import { TaskFields } from './TaskFields.tsx';
import { History } from '../../ui/console/History.tsx';
import { applyFailure, focusField, useFormOptions } from './form-helpers.ts';
import { buildBody, draftKey, DRIVER_NUMBER_FIELDS, editBody, loadTaskChecks, firstErrorField, valuesFromTask, type DriverRowValues, type FieldErrors, type TaskFormValues } from './task-form.ts';
import { parseQuantity } from '../../ui/decimal.ts';
import { clearDraft, readDraft, useDraft } from './use-draft.ts';
import { NamedOptions } from '../../ui/Options.tsx';
import { Form } from '../../ui/Form.tsx';

interface EditDraft {
  base: string;
  values: TaskFormValues;
}

async function reloadTask(id: number): Promise<Task | null> {
  return (await getOnce('GET /tasks/bulk', { ids: [id] })).data.items[0] ?? null;
}

export function TaskEditor({ fresh }: { fresh: Task }) {
  const user = useEngineSnapshot().auth.user;
  const key = draftKey(user?.id, fresh.id);
  const [loaded, setLoaded] = useState<Task>(fresh);
  const [values, setValues] = useState<TaskFormValues>(() => {
    const draft = readDraft<EditDraft>(key);
    return draft && draft.base === fresh.updated_at ? draft.values : valuesFromTask(fresh);
  });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [moving, setMoving] = useState<number | null>(null);
  const server = useNeedsServer();
  const [confirmElement, ask] = useConfirm();
  const [, navigate] = useLocation();
  const options = useFormOptions(String(loaded.company_id));
  const original = valuesFromTask(loaded);
  const dirty = JSON.stringify(original) !== JSON.stringify(values);
  useDraft(key, dirty ? { base: loaded.updated_at, values } : null);
  const stale = fresh.updated_at !== loaded.updated_at;

  function change(patch: Partial<TaskFormValues>): void {
    setValues((current) => ({ ...current, ...patch }));
    setErrors((current) => {
      const next = { ...current };
      for (const field of Object.keys(patch)) {
        for (const errorKey of Object.keys(next)) if (errorKey === field || errorKey.startsWith(`${field}.`)) delete next[errorKey];
      }
      return next;
    });
  }

  /** Shows `task` as loaded; with `keepEdits`, the user's unsaved edits of the other drivers and fields stay. */
  function adopt(task: Task, keepEdits: boolean, actedDriverId?: number): void {
    setLoaded(task);
    setValues((current) => {
      if (!keepEdits) return valuesFromTask(task);
      const drivers = valuesFromTask(task).drivers.map(
        (row) => (row.driver_id !== actedDriverId && current.drivers.find((d) => d.driver_id === row.driver_id)) || row,
      );
      return { ...current, drivers };
    });
    setErrors({});
    setFormError(null);
  }

  async function save(): Promise<void> {
    await loadTaskChecks();
    const edited = buildBody(values, false);
    const base = buildBody(original, false);
    if (!edited.ok) {
      setErrors(edited.errors);
      setFormError('Исправьте отмеченные поля');
      focusField(firstErrorField(edited.errors));
      return;
    }
    const changes = base.ok ? editBody(base.body, edited.body) : edited.body;
    if (Object.keys(changes).length === 0) {
      showToast('info', 'Изменений нет');
      return;
    }
    setSaving(true);
    try {
      const task = await sendOnce('PUT /tasks/:id/', { params: { id: loaded.id }, body: { ...changes, updated_at: loaded.updated_at } });
      clearDraft(key);
      adopt(task, false);
      showToast('success', `Задача №${task.id} сохранена`);
    } catch (error) {
      applyFailure(error, setErrors, setFormError);
    } finally {
      setSaving(false);
    }
  }

  /** Acts on one driver at once (reassign, remove), then shows the task as the server has it now. */
  async function driverAction(run: () => Promise<unknown>, done: string, driverId?: number): Promise<void> {
    try {
      await run();
      const task = await reloadTask(loaded.id);
      if (task) adopt(task, true, driverId);
      showToast('success', done);
    } catch (error) {
      showToast('error', (error as Error).message);
    }
  }

  function driverName(driverId: number): string {
    return options.drivers.find((d) => d.id === driverId)?.name ?? loaded.driver_associations.find((a) => a.driver_id === driverId)?.driver_name ?? `№${driverId}`;
  }

  async function removeDriver(row: DriverRowValues): Promise<void> {
    const name = driverName(row.driver_id);
    const yes = await ask({
      title: `Снять водителя с задачи «${loaded.cargo}»: ${name}?`,
      message: <p>Задача пропадёт из его текущих задач. Водителя, который уже отчитался, снять нельзя.</p>,
      confirmLabel: 'Снять',
      danger: true,
    });
    if (yes) await driverAction(() => sendOnce('DELETE /tasks/:id/drivers/:driverId/', { params: { id: loaded.id, driverId: row.driver_id } }), `${name} снят с задачи`);
  }

  function driverChanged(row: DriverRowValues): boolean {
    const before = original.drivers.find((d) => d.driver_id === row.driver_id);
    return before !== undefined && JSON.stringify(before) !== JSON.stringify(row);
  }

  /** One driver's fields at once, by the spec's per-driver call (PUT /tasks/{id}/drivers/{driverId}/ with query fields). */
  async function saveDriver(row: DriverRowValues): Promise<void> {
    const query: Record<string, string> = { status_param: row.status };
    const fieldErrors: FieldErrors = {};
    for (const key of DRIVER_NUMBER_FIELDS) {
      const parsed = parseQuantity(row[key]);
      if (!parsed.ok) fieldErrors[`drivers.${row.driver_id}.${key}`] = parsed.error;
      else query[key] = parsed.value === null ? '' : String(parsed.value);
    }
    if (Object.keys(fieldErrors).length > 0) {
      setErrors(fieldErrors);
      focusField(firstErrorField(fieldErrors));
      return;
    }
    await driverAction(
      () => sendOnce('PUT /tasks/:id/drivers/:driverId/', { params: { id: loaded.id, driverId: row.driver_id }, query }),
      `Водитель ${driverName(row.driver_id)}: изменения сохранены`,
      row.driver_id,
    );
  }

  function driverActions(row: DriverRowValues) {
    const assigned = new Set(values.drivers.map((d) => d.driver_id));
    const others = options.drivers.filter((d) => !assigned.has(d.id));
    const onServer = loaded.driver_associations.some((a) => a.driver_id === row.driver_id && a.status !== 'cancelled');
    if (!onServer) {
      return (
        <button type="button" className="button button-quiet button-small" onClick={() => change({ drivers: values.drivers.filter((d) => d.driver_id !== row.driver_id) })}>
          Убрать
        </button>
      );
    }
    return (
      <>
        {moving === row.driver_id ? (
          <select
            aria-label={`Кому передать задачу (сейчас у водителя: ${driverName(row.driver_id)})`}
            className="row-status"
            defaultValue=""
            onChange={(event) => {
              const to = Number(event.target.value);
              setMoving(null);
              if (to)
                void driverAction(
                  () => sendOnce('PUT /tasks/:id/drivers/:driverId/move/', { params: { id: loaded.id, driverId: row.driver_id }, body: { to_driver_id: to } }),
                  `Задача передана: ${driverName(to)}`,
                );
            }}
            onBlur={() => setMoving(null)}
            autoFocus
          >
            <option value="">Выберите водителя</option>
            <NamedOptions items={others} />
          </select>
        ) : (
          <button type="button" className="button button-quiet button-small" disabled={server.offline || others.length === 0} title={server.reason} onClick={() => setMoving(row.driver_id)}>
            Переназначить
          </button>
        )}
        {driverChanged(row) && (
          <button type="button" className="button button-small" disabled={server.offline} title={server.reason} onClick={() => void saveDriver(row)}>
            Сохранить водителя
          </button>
        )}
        <button type="button" className="button button-quiet button-small" disabled={server.offline} title={server.reason} onClick={() => void removeDriver(row)}>
          Снять
        </button>
      </>
    );
  }

  async function deleteTask(): Promise<void> {
    const yes = await ask({
      title: `Удалить задачу «${loaded.cargo}» на ${formatDate(loaded.date)}?`,
      message: <p>Задачу с отчётами удалить нельзя — её можно отменить.</p>,
      confirmLabel: 'Удалить',
      danger: true,
    });
    if (!yes) return;
    try {
      await sendOnce('DELETE /tasks/:id/', { params: { id: loaded.id } });
      clearDraft(key);
      showToast('success', `Задача №${loaded.id} удалена`);
      navigate('/tasks/manage');
    } catch (error) {
      showToast('error', `Задача не удалена: ${(error as Error).message}`);
    }
  }

  return (
    <Form className="task-form" onSubmit={save}>
      {confirmElement}
      {stale && (
        <div className="notice" role="status">
          Задачу изменили в другой вкладке или другим пользователем.{' '}
          <button type="button" className="button button-small" onClick={() => adopt(fresh, false)}>
            Загрузить свежую версию
          </button>
          {dirty && ' Ваши несохранённые правки при этом пропадут.'}
        </div>
      )}
      {formError && (
        <p className="form-error" role="alert">
          {formError}
        </p>
      )}
      <TaskFields
        values={values}
        errors={errors}
        onChange={change}
        companies={null}
        drivers={options.drivers}
        editing
        disabled={saving}
        driverActions={driverActions}
      />
      <div className="task-form-actions">
        <button type="submit" className="button button-primary" disabled={saving || server.offline || !dirty} title={server.reason}>
          {saving ? 'Сохраняем…' : 'Сохранить'}
        </button>
        <button type="button" className="button" disabled={!dirty || saving} onClick={() => adopt(loaded, false)}>
          Отменить правки
        </button>
        <button type="button" className="button button-quiet button-danger-text" disabled={saving || server.offline} onClick={() => void deleteTask()}>
          Удалить задачу
        </button>
        <NeedsServerHint offline={server.offline} what="сохранить задачу (правки сохраняются в черновике)" />
      </div>
      <History entity="task" id={loaded.id} />
    </Form>
  );
}
