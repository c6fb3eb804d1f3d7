/** The selection toolbar and the per-row result of a bulk action. */
import type { ReactNode } from 'react';
import { summarizeBulk, type BulkOutcome } from './bulk.ts';

export function BulkBar({ count, onClear, children }: { count: number; onClear: () => void; children: ReactNode }) {
  if (count === 0) return null;
  return (
    <div className="bulk-bar" role="toolbar" aria-label="Действия с выбранными">
      <span className="bulk-count">Выбрано: {count}</span>
      <div className="bulk-actions">{children}</div>
      <button type="button" className="button button-quiet button-small" onClick={onClear}>
        Снять выбор
      </button>
    </div>
  );
}

export function BulkResults({ title, outcomes, onClose }: { title: string; outcomes: BulkOutcome[]; onClose: () => void }) {
  const refused = outcomes.filter((o) => !o.ok);
  return (
    <section className={refused.length ? 'bulk-results bulk-results-partial' : 'bulk-results'} role="status" aria-live="polite">
      <div className="bulk-results-head">
        <strong>
          {title}: {summarizeBulk(outcomes)}
        </strong>
        <button type="button" className="button button-quiet button-small" onClick={onClose}>
          Скрыть
        </button>
      </div>
      {refused.length > 0 && (
        <ul className="bulk-refused">
          {refused.map((o) => (
            <li key={o.id}>
              <span className="bulk-refused-label">{o.label}</span> — отклонено: {o.message}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
