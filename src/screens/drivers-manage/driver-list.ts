/** /drivers/manage's list logic: filters from the URL applied to the company's drivers, sorted, as pure functions. */
import type { DriverListItem } from '../../../contract/entities.ts';
import { spellingsMatch } from '../../ui/search-text.ts';

export const DRIVER_DEFAULTS = { search: '', status: 'active', sort: 'name', company: '', page: '0' };
export type DriverFilters = typeof DRIVER_DEFAULTS;

export const STATUS_OPTIONS = [
  { value: 'active', label: 'Активные' },
  { value: 'inactive', label: 'Отключённые' },
  { value: 'all', label: 'Все' },
] as const;

function haystack(d: DriverListItem): string {
  const t = d.current_transport;
  return [d.name, d.email, d.phone, t?.vehicle_number, t?.vehicle_brand].filter(Boolean).join(' ');
}

export function filterDrivers(drivers: readonly DriverListItem[], f: DriverFilters): DriverListItem[] {
  const rows = drivers.filter((d) => {
    if (f.status === 'active' && !d.is_active) return false;
    if (f.status === 'inactive' && d.is_active) return false;
    return !f.search.trim() || spellingsMatch(haystack(d), f.search);
  });
  const desc = f.sort.startsWith('-');
  const key = f.sort.replace(/^-/, '');
  const value = (d: DriverListItem): string | number =>
    key === 'today' ? d.today_task_count : key === 'capacity' ? (d.current_transport?.vehicle_capacity ?? -1) : d.name.toLocaleLowerCase('ru');
  return rows.sort((a, b) => {
    const x = value(a);
    const y = value(b);
    const order = x < y ? -1 : x > y ? 1 : a.id - b.id;
    return desc ? -order : order;
  });
}
