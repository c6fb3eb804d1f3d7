/**
 * «История изменений» of a task, a driver's part or a report (GET /audit/): newest first, who, when, from which
 * device for a driver's change, and each field from → to in words. Folded until opened, then loaded.
 */
import { useState } from 'react';
import type { AuditEntity, AuditEntry } from '../../../contract/calls/audit.ts';
import { useGet } from '../../engine/api.ts';
import { formatDateTime } from '../format.ts';
import './history.css';

/** The field names, here rather than from the contract's table, so this chunk carries no schemas. */
const LABELS: Record<string, string> = {
  date: 'дата',
  cargo: 'груз',
  loading_place: 'место погрузки',
  unloading_place: 'место выгрузки',
  planned_quantity: 'план / доля',
  unit: 'единица',
  rate: 'ставка',
  status: 'статус',
  comment: 'комментарий',
  max_drivers: 'мест',
  driver_id: 'водитель №',
  quantity: 'количество',
  loading_quantity: 'погружено',
  unloading_quantity: 'выгружено',
  transport_rate: 'ставка водителя',
  trips: 'рейсов',
  ticket_number: 'талон',
  total_loading_quantity: 'всего на погрузке',
  total_unloading_quantity: 'всего на выгрузке',
  final: 'последний рейс',
  review_status: 'проверка',
  review_comment: 'комментарий проверки',
  photos: 'фото',
  photo_retention: 'срок хранения фото',
};
const WORDS: Record<string, string> = {
  open: 'открыта',
  accepted: 'принята',
  in_progress: 'в работе',
  completed: 'выполнена',
  cancelled: 'отменена',
  pending: 'ждёт проверки',
  approved: 'подтверждён',
  disputed: 'оспорен',
  archived: 'истёк: перенесены в архив',
  deleted: 'истёк: удалены',
};
const WHAT: Record<AuditEntry['entity'], string> = { task: 'Задача', association: 'Водитель на задаче', report: 'Отчёт' };
const ACTION: Record<AuditEntry['action'], string> = { create: 'создан(а)', update: 'изменён(а)', delete: 'удалён(а)' };

const shown = (field: string, value: string | number | null): string => {
  if (value === null || value === '') return '—';
  if (field === 'final') return value === 1 ? 'да' : 'нет';
  return typeof value === 'number' ? String(value).replace('.', ',') : (WORDS[value] ?? value);
};

export function History({ entity, id }: { entity: AuditEntity; id: number }) {
  const [open, setOpen] = useState(false);
  return (
    <details className="history" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>История изменений</summary>
      {open ? <Entries entity={entity} id={id} /> : null}
    </details>
  );
}

function Entries({ entity, id }: { entity: AuditEntity; id: number }) {
  const query = useGet('GET /audit/', { entity, id });
  if (query.isPending) return <p className="muted">Загрузка истории…</p>;
  if (query.isError) return <p className="field-error">{query.error.message}</p>;
  const entries = query.data.data;
  if (entries.length === 0) return <p className="muted">Изменений пока нет.</p>;
  return (
    <ol className="history-list">
      {entries.map((e) => (
        <li key={e.id}>
          <div className="history-head">
            <strong>
              {WHAT[e.entity]} №{e.entity_id} {ACTION[e.action]}
            </strong>
            <span className="muted">
              {formatDateTime(e.created_at)} · {e.user_name ?? 'система'}
              {e.device_id ? ` · устройство ${e.device_id.slice(0, 8)}` : ''}
            </span>
          </div>
          <ul className="history-changes">
            {e.changes.map((c) => (
              <li key={c.field}>
                {LABELS[c.field] ?? c.field}: {e.action === 'create' ? shown(c.field, c.to) : e.action === 'delete' ? shown(c.field, c.from) : `${shown(c.field, c.from)} → ${shown(c.field, c.to)}`}
              </li>
            ))}
          </ul>
        </li>
      ))}
    </ol>
  );
}
