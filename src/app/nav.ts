/**
 * The one table of protected screens: path, Russian label, who may open it (docs/product.md §2 and §6).
 * The router builds its routes from it and the sidebar lists from it, so the two never disagree.
 */
import { ADMINS, ALL_ROLES, DRIVER_ONLY, ROLES, STAFF, SUPER_ONLY, type Role } from '../../contract/roles.ts';

export interface NavEntry {
  readonly path: string;
  readonly label: string;
  readonly roles: readonly Role[];
  /** Routes with parameters (a report by id) are reached from other screens, not from the sidebar. */
  readonly inSidebar: boolean;
}

export const NAV = [
  { path: '/dispatch', label: 'Диспетчерская', roles: STAFF, inSidebar: true },
  { path: '/profile', label: 'Профиль', roles: ALL_ROLES, inSidebar: true },
  { path: '/available-tasks', label: 'Доступные задачи', roles: DRIVER_ONLY, inSidebar: true },
  { path: '/current-tasks', label: 'Текущие задачи', roles: DRIVER_ONLY, inSidebar: true },
  { path: '/statistics', label: 'Статистика', roles: ALL_ROLES, inSidebar: true },
  { path: '/announcements', label: 'Объявления', roles: ALL_ROLES, inSidebar: true },
  { path: '/tasks/create', label: 'Создать задачу', roles: STAFF, inSidebar: true },
  { path: '/tasks/import', label: 'Импорт задач из Excel', roles: STAFF, inSidebar: true },
  { path: '/tasks/manage', label: 'Управление задачами', roles: STAFF, inSidebar: true },
  { path: '/tasks/active', label: 'Активные задачи', roles: STAFF, inSidebar: true },
  { path: '/reports', label: 'Отчёты', roles: STAFF, inSidebar: true },
  { path: '/tasks/driverTaskOrder', label: 'Порядок задач водителей', roles: STAFF, inSidebar: true },
  { path: '/drivers/manage', label: 'Управление водителями', roles: STAFF, inSidebar: true },
  { path: '/vehicles', label: 'Транспорт компании', roles: STAFF, inSidebar: true },
  { path: '/trip-sheets', label: 'Путевые листы', roles: STAFF, inSidebar: true },
  { path: '/documents', label: 'Документы', roles: STAFF, inSidebar: true },
  { path: '/counterparties', label: 'Контрагенты', roles: STAFF, inSidebar: true },
  { path: '/places', label: 'Места погрузки и выгрузки', roles: STAFF, inSidebar: true },
  { path: '/user-registration-requests', label: 'Заявки на регистрацию', roles: STAFF, inSidebar: true },
  { path: '/carrier-transfers', label: 'Передачи перевозчикам', roles: STAFF, inSidebar: true },
  { path: '/payroll', label: 'Расчёт с водителями', roles: STAFF, inSidebar: true },
  { path: '/manager-salary', label: 'Зарплата менеджера', roles: STAFF, inSidebar: true },
  { path: '/reports/:id', label: 'Отчёт', roles: STAFF, inSidebar: false },
  { path: '/companies/manage', label: 'Управление компаниями', roles: ADMINS, inSidebar: true },
  { path: '/support', label: 'Поддержка', roles: ADMINS, inSidebar: true },
  { path: '/managers/manage', label: 'Управление менеджерами', roles: SUPER_ONLY, inSidebar: true },
  { path: '/users/manage', label: 'Управление пользователями', roles: SUPER_ONLY, inSidebar: true },
] as const satisfies readonly NavEntry[];

export type NavPath = (typeof NAV)[number]['path'];

/**
 * The sidebar entries a user may open. With no user loaded (offline mode before a profile was
 * cached) only the entries every role may open are offered.
 */
export function sidebarFor(role: Role | null): NavEntry[] {
  const allows = (entry: NavEntry): boolean =>
    role === null ? ROLES.every((r) => entry.roles.includes(r)) : entry.roles.includes(role);
  return NAV.filter((entry) => entry.inSidebar && allows(entry));
}

/**
 * The menu entry a page belongs to: its own, or the list it is opened from — a task's page (/tasks/create?id=…)
 * belongs to «Управление задачами», not to «Создать задачу»; a report's (/reports/7) to «Отчёты».
 */
export function menuPathFor(location: string, search: string): string {
  if (location === '/tasks/create' && new URLSearchParams(search).has('id')) return '/tasks/manage';
  if (/^\/reports\/[^/]+$/.test(location)) return '/reports';
  return location;
}

/** Where a role lands after signing in: a driver on his tasks of the day, staff on the board, the rest on the profile. */
export function landingFor(role: Role | null | undefined): NavPath {
  if (role === 'driver') return '/current-tasks';
  if (role === 'manager' || role === 'admin' || role === 'super-admin') return '/dispatch';
  return '/profile';
}

/** Public pages: reachable without signing in, where startup must not force a redirect. */
export const PUBLIC_PATHS: readonly string[] = ['/login', '/register', '/table'];

/** What the route table gives every screen. */
export interface ScreenProps {
  /** The label from the NAV table, for screens that show it as their title. */
  title: string;
}
