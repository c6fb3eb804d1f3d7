/**
 * /tasks/create: the task form. Without `?id` it creates a task (a draft survives a reload;
 * «Создать ещё одну» keeps the date and the places); with `?id=N` the same form edits task N, sending only
 * what changed with the `updated_at` it loaded, so a stale tab is refused instead of writing over newer data.
 */
import { useEffect, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { showToast } from '../../ui/toasts.ts';
import type { Task } from '../../../contract/entities.ts';
import type { ScreenProps } from '../../app/nav.ts';
import { useEngineSnapshot } from '../../engine/store.ts';
import { useNeedsServer } from '../../engine/use-online.ts';
import { NeedsServerHint } from '../../ui/NeedsServerHint.tsx';
import { Page } from '../../ui/Page.tsx';
import { Loading, ErrorState, QueryError } from '../../ui/states.tsx';
import { isoDate } from '../../ui/format.ts';
import { TaskFields } from './TaskFields.tsx';
import { TaskEditor } from './TaskEditor.tsx';
import { applyFailure, focusField, useDayLoad, useFormOptions } from './form-helpers.ts';
import { buildBody, createBody, draftKey, emptyValues, firstErrorField, loadTaskChecks, nextValues, type FieldErrors, type TaskFormValues } from './task-form.ts';
import { clearDraft, readDraft, useDraft } from './use-draft.ts';
import { sendOnce, useGet } from '../../engine/api.ts';
import { REPEAT_MAX_DATES } from '../../../contract/task-limits.ts';
import { formatDate } from '../../ui/format.ts';
import { DAYS, TASKS, TASKS_TO_DO, plural } from '../../../contract/words.ts';
import { TaskTemplates } from './TaskTemplates.tsx';
import { RepeatFields, type RepeatState } from './RepeatFields.tsx';
import { addDays, repeatDates, templateFromBody, templateName, valuesFromTemplate } from './repeat.ts';
import './task-form.css';
import { Form } from '../../ui/Form.tsx';

export function TaskFormScreen({ title }: ScreenProps) {
  const id = Number(new URLSearchParams(useSearch()).get('id'));
  // The contract's task rules load beside the form (task-form.ts); every send waits for them.
  useEffect(() => void loadTaskChecks(), []);
  return Number.isSafeInteger(id) && id > 0 ? <EditTaskScreen id={id} /> : <CreateTaskScreen title={title} />;
}

function CreateTaskScreen({ title }: { title: string }) {
  const user = useEngineSnapshot().auth.user;
  const key = draftKey(user?.id, null);
  const [values, setValues] = useState<TaskFormValues>(() => readDraft<TaskFormValues>(key) ?? emptyValues(isoDate(new Date())));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [created, setCreated] = useState<Task | null>(null);
  const server = useNeedsServer();
  const [, navigate] = useLocation();
  const options = useFormOptions(values.company_id);
  const dayLoad = useDayLoad(values.date, values.company_id, options.superAdmin);
  useDraft(key, values);
  const [repeat, setRepeat] = useState<RepeatState>(() => ({ on: false, mode: 'workdays', weekdays: [1, 2, 3, 4, 5], until: addDays(values.date, 13) }));
  const dates = repeat.on ? repeatDates(values.date, repeat, REPEAT_MAX_DATES + 1) : [];
  const companyId = options.superAdmin ? (values.company_id ? Number(values.company_id) : undefined) : undefined;

  function change(patch: Partial<TaskFormValues>): void {
    setValues((current) => ({ ...current, ...patch, ...(patch.company_id !== undefined && patch.company_id !== current.company_id ? { drivers: [] } : {}) }));
    // An error goes once its field is edited.
    setErrors((current) => {
      const next = { ...current };
      for (const field of Object.keys(patch)) {
        for (const errorKey of Object.keys(next)) if (errorKey === field || errorKey.startsWith(`${field}.`)) delete next[errorKey];
      }
      return next;
    });
  }

  // «Создать ещё одну»: the next task starts at the cargo — focused once the form is enabled again (after the
  // render that ends the save; a timer could fire before it, while the fields are still disabled).
  const [nextTask, setNextTask] = useState(0);
  useEffect(() => {
    if (nextTask > 0) focusField('cargo');
  }, [nextTask]);

  async function submit(another: boolean): Promise<void> {
    await loadTaskChecks();
    const built = buildBody(values, options.superAdmin);
    if (!built.ok) {
      setErrors(built.errors);
      setFormError('Исправьте отмеченные поля');
      focusField(firstErrorField(built.errors));
      return;
    }
    if (repeat.on && (dates.length === 0 || dates.length > REPEAT_MAX_DATES)) {
      setFormError(dates.length === 0 ? 'Повторять: по правилу не выходит ни одного дня' : `Повторять: не больше ${plural(REPEAT_MAX_DATES, DAYS)} за раз`);
      focusField('repeat_until');
      return;
    }
    setSaving(true);
    if (repeat.on) {
      try {
        const made = await sendOnce('POST /tasks/repeat', { body: { task: createBody(built.body), dates } });
        clearDraft(key);
        setErrors({});
        setFormError(null);
        showToast('success', `Создано: ${plural(made.task_ids.length, TASKS)} «${built.body.cargo}», с ${formatDate(dates[0]!)} по ${formatDate(dates.at(-1)!)}`);
        navigate('/tasks/manage');
      } catch (error) {
        applyFailure(error, setErrors, setFormError);
      } finally {
        setSaving(false);
      }
      return;
    }
    try {
      const task = await sendOnce('POST /tasks/', { body: createBody(built.body) });
      clearDraft(key);
      setErrors({});
      setFormError(null);
      showToast('success', `Задача №${task.id} «${task.cargo}» создана`);
      if (another) {
        setCreated(task);
        setValues(nextValues(values));
        setNextTask((n) => n + 1);
      } else navigate('/tasks/manage');
    } catch (error) {
      applyFailure(error, setErrors, setFormError);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Page title={title} wide>
      {/* Outside the form: its dialog has a form of its own, and forms do not nest. */}
      <TaskTemplates
        companyId={companyId}
        disabled={saving || server.offline}
        canApply={options.driverIds !== null}
        suggestedName={templateName(values)}
        current={() => {
          const built = buildBody(values, options.superAdmin);
          if (built.ok) return templateFromBody(built.body);
          setErrors(built.errors);
          setFormError('Чтобы сохранить шаблон, исправьте отмеченные поля');
          focusField(firstErrorField(built.errors));
          return null;
        }}
        onApply={(template) => {
          setValues((current) => valuesFromTemplate(current, template.fields, options.driverIds) ?? current);
          setErrors({});
          setFormError(null);
        }}
      />
      <Form className="task-form" onSubmit={() => submit(false)}>
        {created && (
          <p className="notice notice-success" role="status">
            Создана задача <Link href={`/tasks/create?id=${created.id}`}>№{created.id} «{created.cargo}»</Link>. Дата и места оставлены для следующей.
          </p>
        )}
        {formError && (
          <p className="form-error" role="alert">
            {formError}
          </p>
        )}
        <TaskFields values={values} errors={errors} onChange={change} companies={options.companies} drivers={options.drivers} dayLoad={dayLoad} editing={false} disabled={saving} />
        <RepeatFields state={repeat} dates={dates} onChange={setRepeat} disabled={saving} />
        <div className="task-form-actions">
          <button type="submit" className="button button-primary" disabled={saving || server.offline} title={server.reason}>
            {saving ? 'Создаём…' : repeat.on && dates.length > 0 && dates.length <= REPEAT_MAX_DATES ? `Создать ${plural(dates.length, TASKS_TO_DO)}` : 'Создать'}
          </button>
          <button type="button" className="button" disabled={saving || server.offline || repeat.on} title={server.reason} onClick={() => void submit(true)}>
            Создать ещё одну
          </button>
          <button
            type="button"
            className="button button-quiet"
            disabled={saving}
            onClick={() => {
              setValues(emptyValues(values.date));
              setErrors({});
              setFormError(null);
            }}
          >
            Очистить
          </button>
          <NeedsServerHint offline={server.offline} what="создать задачу (черновик сохраняется)" />
        </div>
      </Form>
    </Page>
  );
}

function EditTaskScreen({ id }: { id: number }) {
  const query = useGet('GET /tasks/bulk', { ids: [id] });
  const task = query.data?.data.items[0];
  const title = `Задача №${id}`;
  if (query.isPending) return <Page title={title}><Loading /></Page>;
  if (query.isError) return <Page title={title}><QueryError query={query} /></Page>;
  if (!task) {
    return (
      <Page title={title}>
        <ErrorState message="Задача не найдена: её удалили или она другой компании." />
        <Link href="/tasks/manage">К списку задач</Link>
      </Page>
    );
  }
  return (
    <Page title={`${title} · ${task.cargo}`} wide aside={<Link href="/tasks/manage">← К списку задач</Link>}>
      <TaskEditor fresh={task} />
    </Page>
  );
}
