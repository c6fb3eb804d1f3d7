/**
 * The driver's reports the dispatcher disputed, on current and finished tasks alike (GET /reports/disputed/,
 * through the engine's cached GET, so the list stays on screen offline): each with its task, the dispatcher's
 * reason and «Исправить», which opens the correction form (ReportForm with `editing`) in one tap. They wait for
 * him at the top of /current-tasks and in the «Отчёты» panel; the bottom bar's count includes them.
 */
import { useId } from 'react';
import type { DisputedReport } from '../../../contract/calls/reports.ts';
import { NEEDS_SERVER, useOnline } from '../../engine/use-online.ts';
import { formatDate, formatQuantity } from '../../ui/format.ts';
import { useOpenReportForm } from './ReportFormHost.tsx';
import './reports.css';

/** The section, or nothing while there is nothing to correct (or the list could not be had). */
export function DisputedReports({ reports, headingLevel = 2 }: { reports: readonly DisputedReport[]; headingLevel?: 2 | 3 }) {
  const titleId = useId();
  if (reports.length === 0) return null;
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <section className="drv-disputed" aria-labelledby={titleId}>
      <Heading id={titleId} className="drv-disputed__title">
        Оспорено диспетчером: {reports.length}
      </Heading>
      <ul className="drv-disputed__list">
        {reports.map((entry) => (
          <DisputedItem key={entry.report.id} entry={entry} />
        ))}
      </ul>
    </section>
  );
}

function DisputedItem({ entry }: { entry: DisputedReport }) {
  const { report, task } = entry;
  const online = useOnline();
  const openReportForm = useOpenReportForm();
  const finished = entry.association_status === 'completed';
  return (
    <li className="drv-disputed__item">
      <p className="drv-disputed__task">
        {task.cargo}, {formatDate(task.date)}
        {finished ? <span className="drv-muted"> · задача завершена</span> : null}
      </p>
      <p className="drv-muted">
        {task.loading_place} → {task.unloading_place} · отчёт от {new Date(report.completed_at ?? report.created_at).toLocaleString('ru-RU', { dateStyle: 'short', timeStyle: 'short' })}
        {report.quantity !== null ? ` · ${formatQuantity(report.quantity, task.unit)}` : ''}
      </p>
      <p className="drv-disputed__reason">Причина: «{report.review_comment ?? 'не указана'}»</p>
      <button
        type="button"
        className="drv-btn drv-btn--primary drv-btn--small"
        disabled={!online}
        title={online ? undefined : NEEDS_SERVER}
        onClick={() => openReportForm({ associationId: report.association_id, task, editing: { report, photos: report.photos } })}
      >
        Исправить
      </button>
    </li>
  );
}
