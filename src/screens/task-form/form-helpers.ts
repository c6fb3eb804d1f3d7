/** The task form's helpers shared by create and edit. */
import { ApiError } from '../../engine/queries.ts';
import { useGet } from '../../engine/api.ts';
import { useEngineSnapshot } from '../../engine/store.ts';
import { serverFieldError, type FieldErrors } from './task-form.ts';

/** Focuses the field a message is about (inputs carry the field's key as their name). */
export function focusField(field: string | null): void {
  if (!field) return;
  const element = document.querySelector<HTMLElement>(`[name="${CSS.escape(field)}"]`);
  element?.focus();
}

/** What a failed save tells the user, and under which field. */
export function applyFailure(error: unknown, setErrors: (errors: FieldErrors) => void, setFormError: (message: string | null) => void): void {
  if (error instanceof ApiError && !error.network) {
    const { field, message } = serverFieldError(error.message);
    if (field) {
      setErrors({ [field]: message });
      setFormError(null);
      focusField(field);
    } else setFormError(message);
  } else {
    setFormError('Нет связи с сервером: задача не сохранена. Всё введённое сохранено в черновике — попробуйте ещё раз.');
  }
}

export function useFormOptions(companyId: string) {
  const superAdmin = useEngineSnapshot().auth.user?.role === 'super-admin';
  const companies = useGet(superAdmin ? 'GET /companies/' : null);
  const drivers = useGet('GET /users/drivers/', superAdmin && companyId ? { company_id: Number(companyId) } : undefined, {
    enabled: !superAdmin || companyId !== '',
  });
  const list = drivers.data?.data;
  return {
    superAdmin,
    companies: superAdmin ? (companies.data?.data ?? []) : null,
    drivers: list ?? [],
    /** The company's driver ids; null while they load (no company chosen yet: none). */
    driverIds: list ? new Set(list.map((d) => d.id)) : superAdmin && companyId === '' ? new Set<number>() : null,
  };
}


/** Each driver's tasks and tonnage on the form's date (the board's figures), for the driver picker. */
export function useDayLoad(date: string, companyId: string, superAdmin: boolean): ReadonlyMap<number, DayLoad> {
  const ready = /^\d{4}-\d{2}-\d{2}$/.test(date) && (!superAdmin || companyId !== '');
  const board = useGet(ready ? 'GET /dispatch/board' : null, { date, ...(superAdmin && companyId ? { company_id: Number(companyId) } : {}) });
  const drivers = board.data?.data.drivers ?? [];
  return new Map(drivers.map((d) => [d.id, { tasks: d.task_ids.length, planned: d.planned }]));
}

export interface DayLoad {
  tasks: number;
  planned: number;
}
