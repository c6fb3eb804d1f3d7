/** The four roles of docs/product.md §1, and the permission groups of §6. */
export const ROLES = ['driver', 'manager', 'admin', 'super-admin'] as const;
export type Role = (typeof ROLES)[number];

export const ALL_ROLES: readonly Role[] = ROLES;
export const DRIVER_ONLY: readonly Role[] = ['driver'];
export const STAFF: readonly Role[] = ['manager', 'admin', 'super-admin'];
export const ADMINS: readonly Role[] = ['admin', 'super-admin'];
export const SUPER_ONLY: readonly Role[] = ['super-admin'];

export const ROLE_LABELS: Record<Role, string> = {
  driver: 'Водитель',
  manager: 'Менеджер',
  admin: 'Администратор',
  'super-admin': 'Суперадминистратор',
};

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}
