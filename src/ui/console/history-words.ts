/**
 * «История изменений» in the words the rest of the app uses (pure; tests/ui/history-words.test.ts): each entry's
 * heading with a verb that agrees with its noun and names instead of internal numbers (a driver's part is its
 * driver, by name), each field by its screen label, statuses by the screens' names, dates, decimal commas, photos
 * added and removed.
 */
import type { AuditEntity, AuditEntry } from '../../../contract/calls/audit.ts';
import { formatNumber } from '../../../contract/words.ts';
import { formatDate } from '../format.ts';
import { DRIVER_STATUS_LABELS, REVIEW_LABELS, TASK_STATUS_LABELS } from '../statuses.ts';

/** The field names as the form and the report screens label them, per kind of entry. */
const LABELS: Record<AuditEntity, Record<string, string>> = {
  task: {
    date: 'дата',
    cargo: 'груз',
    loading_place: 'место погрузки',
    unloading_place: 'место выгрузки',
    planned_quantity: 'плановое количество',
    unit: 'единица',
    rate: 'цена для заказчика',
    status: 'статус',
    comment: 'комментарий',
    max_drivers: 'мест для водителей',
  },
  association: {
    driver_id: 'водитель',
    status: 'статус',
    planned_quantity: 'доля',
    quantity: 'количество',
    loading_quantity: 'погружено',
    unloading_quantity: 'выгружено',
    transport_rate: 'ставка водителя',
  },
  report: {
    quantity: 'количество',
    trips: 'рейсов',
    ticket_number: 'талон',
    total_loading_quantity: 'всего на погрузке',
    total_unloading_quantity: 'всего на выгрузке',
    final: 'последний рейс',
    review_status: 'проверка',
    review_comment: 'комментарий проверки',
    photos: 'фото',
    photo_retention: 'срок хранения фото',
  },
};

const STATUS: Record<AuditEntity, Record<string, string>> = { task: TASK_STATUS_LABELS, association: DRIVER_STATUS_LABELS, report: REVIEW_LABELS };

/** «Задача №12 изменена», «Отчёт №5 создан», «Водитель назначен на задачу: Иван Петров». */
export function entryTitle(e: Pick<AuditEntry, 'entity' | 'entity_id' | 'action' | 'driver_name'>): string {
  if (e.entity === 'task') return `Задача №${e.entity_id} ${{ create: 'создана', update: 'изменена', delete: 'удалена' }[e.action]}`;
  if (e.entity === 'report') return `Отчёт №${e.entity_id} ${{ create: 'создан', update: 'изменён', delete: 'удалён' }[e.action]}`;
  const what = { create: 'Водитель назначен на задачу', update: 'Изменено назначение водителя', delete: 'Водитель снят с задачи' }[e.action];
  return `${what}: ${e.driver_name ?? 'водитель удалён'}`;
}

/** The retention rule's outcome for a report's photos (server/reports/retention.ts). */
const RETENTION: Record<string, string> = { archived: 'истёк: перенесены в архив', deleted: 'истёк: удалены' };

const ids = (value: string | number | null): string[] => (value === null || value === '' ? [] : String(value).split(','));

function shown(entity: AuditEntity, field: string, value: string | number | null): string {
  if (value === null || value === '') return '—';
  if (field === 'final') return value === 1 || value === '1' ? 'да' : 'нет';
  if (field === 'photos') return String(ids(value).length);
  if (field === 'photo_retention') return RETENTION[String(value)] ?? String(value);
  if (field === 'date') return formatDate(String(value));
  if (field === 'status' || field === 'review_status') return (STATUS[entity][String(value)] ?? String(value)).toLowerCase();
  return typeof value === 'number' ? formatNumber(value) : value;
}

/** One change in words: «груз: Песок → Песок мытый», «фото: удалено 1, добавлено 1». */
export function changeText(entity: AuditEntity, action: AuditEntry['action'], c: AuditEntry['changes'][number]): string {
  const label = LABELS[entity][c.field] ?? c.field;
  if (action === 'create') return `${label}: ${shown(entity, c.field, c.to)}`;
  if (action === 'delete') return `${label}: ${shown(entity, c.field, c.from)}`;
  if (c.field === 'photos') {
    const before = ids(c.from);
    const after = ids(c.to);
    const removed = before.filter((id) => !after.includes(id)).length;
    const added = after.filter((id) => !before.includes(id)).length;
    return `${label}: ${[removed ? `удалено ${removed}` : '', added ? `добавлено ${added}` : ''].filter(Boolean).join(', ')}`;
  }
  return `${label}: ${shown(entity, c.field, c.from)} → ${shown(entity, c.field, c.to)}`;
}
