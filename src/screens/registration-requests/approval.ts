/** Who may approve which request: a manager only drivers (the server answers 403 otherwise). */
import type { Role } from '../../../contract/roles.ts';

export function canApprove(approver: Role | null | undefined, requestRole: string): boolean {
  if (approver === 'admin' || approver === 'super-admin') return true;
  return approver === 'manager' && requestRole === 'driver';
}

/** Shown instead of the button where the user may not approve. */
export const APPROVED_BY_ADMIN = 'Подтверждает администратор';
