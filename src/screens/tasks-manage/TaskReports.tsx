/**
 * A task's way to its reports. The task payload carries the drivers' associations but no report ids, so the
 * reports of each association are asked for (GET /reports/association/{id}) only when the user opens this.
 */
import type { DriverAssociation, Report } from '../../../contract/entities.ts';
import { useState } from 'react';
import { Link } from 'wouter';
import { useApiQuery } from '../../engine/queries.ts';
import { listOf } from '../../ui/list.ts';
import { formatDateTime } from '../../ui/format.ts';

function AssociationReportLinks({ association }: { association: DriverAssociation }) {
  const query = useApiQuery<Report[] | { items: Report[] }>(`/reports/association/${association.id}`);
  if (query.isPending) return <span className="muted">загрузка…</span>;
  if (query.isError) return <span className="field-error">{query.error.message}</span>;
  const reports = listOf(query.data.data);
  if (reports.length === 0) return <span className="muted">отчётов нет</span>;
  return (
    <>
      {reports.map((report) => (
        <Link key={report.id} href={`/reports/${report.id}`} className="tasks-report-link">
          Отчёт №{report.id} от {formatDateTime(report.completed_at ?? report.created_at)}
        </Link>
      ))}
    </>
  );
}

export function TaskReports({ associations }: { associations: DriverAssociation[] }) {
  const [open, setOpen] = useState(false);
  if (associations.length === 0) return null;
  return (
    <details className="tasks-reports" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>Отчёты</summary>
      {open && (
        <ul>
          {associations.map((association) => (
            <li key={association.id}>
              <span>{association.driver_name ?? `Водитель №${association.driver_id}`}:</span> <AssociationReportLinks association={association} />
            </li>
          ))}
        </ul>
      )}
    </details>
  );
}
