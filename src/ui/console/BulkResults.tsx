/** The bulk toolbar (count, actions, clear) and the per-item report of a finished bulk action. */
import type { ReactNode } from 'react';
import { bulkSummary, type BulkOutcome } from './bulk.ts';

export function BulkBar({ count, onClear, children }: { count: number; onClear: () => void; children: ReactNode }) {
  if (count === 0) return null;
  return (
    <div className="bulk-bar" role="toolbar" aria-label="Действия с выбранными">
      <span className="bulk-bar__count">Выбрано: {count}</span>
      <div className="bulk-bar__actions">{children}</div>
      <button type="button" className="button button-quiet" onClick={onClear}>
        Снять выбор
      </button>
    </div>
  );
}

export interface BulkReport {
  /** What was done ('Удаление', 'Смена статуса на «Выполнена»'). */
  title: string;
  outcomes: BulkOutcome[];
}

/** "Удаление: 3 выполнено, 1 отклонено" and every refused item with the server's reason. */
export function BulkResults({ report, onClose }: { report: BulkReport | null; onClose: () => void }) {
  if (!report) return null;
  const refused = report.outcomes.filter((outcome) => !outcome.ok);
  return (
    <div
      className={refused.length ? 'bulk-results bulk-results--refused' : 'bulk-results'}
      role={refused.length ? 'alert' : 'status'}
      data-testid="bulk-results"
    >
      <div className="bulk-results__head">
        <p className="bulk-results__summary">
          {report.title}: {bulkSummary(report.outcomes)}
        </p>
        <button type="button" className="button button-quiet" onClick={onClose}>
          Закрыть
        </button>
      </div>
      {refused.length > 0 && (
        <ul className="bulk-results__list">
          {refused.map((outcome) => (
            <li key={outcome.id}>
              <strong>{outcome.label}</strong> — отклонено: {outcome.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
