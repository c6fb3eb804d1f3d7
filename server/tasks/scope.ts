/**
 * Who may see what (the domain's data scope): a driver their own associations and their company's open
 * tasks, a manager or admin their company's data, a super-admin everything.
 */
import type { AuthUser } from '../auth/guard.ts';
import { badRequest, notFound } from '../errors.ts';
import type { Db } from '../db/connect.ts';
import type { DriverStatus, TaskStatus } from '../../contract/entities.ts';

export const isDriver = (user: AuthUser): boolean => user.role === 'driver';
export const isSuperAdmin = (user: AuthUser): boolean => user.role === 'super-admin';

/** Staff of `companyId` (or a super-admin) may act on that company's data. */
export function staffSeesCompany(user: AuthUser, companyId: number): boolean {
  if (isSuperAdmin(user)) return true;
  return !isDriver(user) && user.company_id !== null && user.company_id === companyId;
}

/**
 * Staff of the company, or the super-admin; anyone else is told the object does not exist (404, never 403:
 * another company's objects are not confirmed to exist). `what` names the object: «Задача не найдена».
 */
export function assertStaffSeesCompany(user: AuthUser, companyId: number, what = 'Не найдено'): void {
  if (!staffSeesCompany(user, companyId)) throw notFound(what);
}

/** Owner driver, or staff of the task's company. */
export function seesAssociation(user: AuthUser, assoc: { driver_id: number; company_id: number }): boolean {
  return isDriver(user) ? assoc.driver_id === user.id : staffSeesCompany(user, assoc.company_id);
}

/** The server's local calendar date, YYYY-MM-DD: "today" for availability. */
export function localToday(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

const STATUS_LABELS: Record<TaskStatus | DriverStatus, string> = {
  open: 'открыто',
  in_progress: 'в работе',
  completed: 'выполнено',
  cancelled: 'отменено',
  accepted: 'принято',
};

export function statusLabel(status: TaskStatus | DriverStatus): string {
  return STATUS_LABELS[status];
}

/**
 * The company a staff member's call is about: their own (a different `company_id` is 404); the super-admin must
 * name one (400).
 */
export async function staffCompany(db: Db, user: AuthUser, companyId: number | undefined | null): Promise<{ id: number; name: string }> {
  let id: number;
  if (isSuperAdmin(user)) {
    if (companyId == null) throw badRequest('company_id: укажите компанию');
    id = companyId;
  } else {
    if (user.company_id === null) throw notFound('Компания не найдена');
    if (companyId != null && companyId !== user.company_id) throw notFound('Компания не найдена');
    id = user.company_id;
  }
  const company = await db.kysely.selectFrom('companies').select(['id', 'name']).where('id', '=', id).executeTakeFirst();
  if (!company) throw notFound('Компания не найдена');
  return company;
}
