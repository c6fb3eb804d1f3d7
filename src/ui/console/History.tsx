/**
 * «История изменений» of a task, a driver's part or a report (GET /audit/): newest first, who, when, from which
 * device for a driver's change, and each field from → to in words. Folded until opened, then loaded.
 */
import { useState } from 'react';
import type { AuditEntity } from '../../../contract/calls/audit.ts';
import { useGet } from '../../engine/api.ts';
import { formatDateTime } from '../format.ts';
import { changeText, entryTitle } from './history-words.ts';
import './history.css';

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
            <strong>{entryTitle(e)}</strong>
            <span className="muted">
              {formatDateTime(e.created_at)} · {e.user_name ?? 'система'}
              {e.device_id ? ` · устройство ${e.device_id.slice(0, 8)}` : ''}
            </span>
          </div>
          <ul className="history-changes">
            {e.changes.map((c) => (
              <li key={c.field}>{changeText(e.entity, e.action, c)}</li>
            ))}
          </ul>
        </li>
      ))}
    </ol>
  );
}
