/**
 * The driver's reports on one association, loaded when opened: quantities, photos, and the actions
 * that change them — remove a photo, delete a report (both confirmed), correct a report in place
 * (ReportForm with `editing`).
 */
import { CLOSED_LOAD_NOTE } from '../../ui/money.ts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { showToast } from '../../ui/toasts.ts';
import type { Report, ReportPhoto } from '../../../contract/entities.ts';
import { useGet, useSend } from '../../engine/api.ts';
import { useConfirm } from '../../ui/ConfirmDialog.tsx';
import { formatQuantity, formatTrips } from '../../ui/format.ts';
import { REVIEW_LABELS } from '../../ui/statuses.ts';
import { photoBlobQuery } from '../../engine/photo-blob.ts';
import { failureMessage } from '../../engine/send.ts';
import { NEEDS_SERVER, useOnline } from '../../engine/use-online.ts';
import { Loading, QueryError } from '../../ui/states.tsx';
import { PhotoThumb } from './PhotoPicker.tsx';
import type { ReportTask } from './ReportForm.tsx';
import { useOpenReportForm } from './ReportFormHost.tsx';
import './reports.css';

export function AssociationReports({ associationId, task, openAtStart = false }: { associationId: number; task: ReportTask | null; openAtStart?: boolean }) {
  const [open, setOpen] = useState(openAtStart);
  return (
    <details className="drv-reports" open={openAtStart || undefined} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary className="drv-reports__summary">Мои отчёты</summary>
      {open ? <ReportList associationId={associationId} task={task} /> : null}
    </details>
  );
}

/** The list itself, for a card that has its own toggle (the current task's «Мои отчёты»). */
export function ReportList({ associationId, task }: { associationId: number; task: ReportTask | null }) {
  const query = useGet('GET /reports/association/:id', { id: associationId });
  if (query.isPending) return <Loading tone="driver" text="Загрузка отчётов..." />;
  if (query.isError) return <QueryError query={query} tone="driver" />;
  const reports = query.data.data;
  if (reports.length === 0) return <p className="drv-muted">Отчётов пока нет.</p>;
  return (
    <ul className="drv-report-list">
      {reports.map((report) => (
        <ReportItem key={report.id} report={report} task={task} />
      ))}
    </ul>
  );
}

function ReportItem({ report, task }: { report: Report; task: ReportTask | null }) {
  const online = useOnline();
  const [confirmDialog, confirm] = useConfirm();
  const openReportForm = useOpenReportForm();
  const photosQuery = useGet('GET /reports/:id/photos', { id: report.id, mode: 'all' });
  const photos = photosQuery.data?.data.photos ?? report.photos;

  const removePhoto = useSend('DELETE /reports/:id/photo');
  const removeReport = useSend('DELETE /reports/:id');

  async function onRemovePhoto(photo: ReportPhoto) {
    const yes = await confirm({ title: 'Удалить фото?', message: 'Фото будет удалено из отчёта без возможности восстановления.', confirmLabel: 'Удалить', danger: true });
    if (!yes) return;
    try {
      await removePhoto.mutateAsync({ params: { id: report.id }, query: { photo_id: photo.id } });
      showToast('success', 'Фото удалено');
    } catch (error) {
      showToast('error', failureMessage(error));
    }
  }

  async function onRemoveReport() {
    const yes = await confirm({ title: 'Удалить отчёт?', message: 'Отчёт и его фото будут удалены, рейс снова станет текущим.', confirmLabel: 'Удалить', danger: true });
    if (!yes) return;
    try {
      await removeReport.mutateAsync({ params: { id: report.id } });
      showToast('success', 'Отчёт удалён');
    } catch (error) {
      showToast('error', failureMessage(error));
    }
  }

  const unit = task?.unit ?? '';
  // What the server would refuse is not offered: an approved report is the company's word, a closed one the sheet's.
  const changeable = !report.closed && report.review_status !== 'approved';
  return (
    <li className="drv-report">
      <p className="drv-report__when">
        Отчёт от {new Date(report.completed_at ?? report.created_at).toLocaleString('ru-RU')}
        {report.trips > 1 ? ` · ${formatTrips(report.trips)}` : ''}
        {report.ticket_number ? ` · талон ${report.ticket_number}` : ''}{' '}
        <span className={`drv-badge drv-review drv-review--${report.review_status}`}>{REVIEW_LABELS[report.review_status]}</span>
      </p>
      {report.review_status === 'disputed' ? (
        <p className="drv-notice drv-notice--danger">
          Диспетчер оспорил отчёт{report.review_comment ? `: «${report.review_comment}»` : ''}. Нажмите «Исправить» и поправьте данные или фото — отчёт снова уйдёт на проверку.
        </p>
      ) : null}
      <dl className="drv-facts">
        <div>
          <dt>Количество</dt>
          <dd>{formatQuantity(report.quantity, unit)}</dd>
        </div>
        <div>
          <dt>Всего на погрузке</dt>
          <dd>{formatQuantity(report.total_loading_quantity, unit)}</dd>
        </div>
        <div>
          <dt>Всего на выгрузке</dt>
          <dd>{formatQuantity(report.total_unloading_quantity, unit)}</dd>
        </div>
      </dl>
      {photos.length > 0 ? (
        <ul className="drv-thumbs" aria-label="Фото отчёта">
          {photos.map((photo) => (
            <StoredPhoto key={photo.id} photo={photo} onRemove={online && changeable ? () => void onRemovePhoto(photo) : undefined} busy={removePhoto.isPending} />
          ))}
        </ul>
      ) : (
        <p className="drv-muted">Без фото.</p>
      )}
      {report.closed ? (
        <p className="drv-muted">{CLOSED_LOAD_NOTE}</p>
      ) : report.review_status === 'approved' ? (
        <p className="drv-muted">Подтверждён диспетчером: изменить его может только диспетчер.</p>
      ) : (
        <div className="drv-card__actions">
          <button type="button" className="drv-btn drv-btn--ghost" disabled={!online || photosQuery.isPending} title={online ? undefined : NEEDS_SERVER} onClick={() => openReportForm({ associationId: report.association_id, task, editing: { report, photos } })}>
            Исправить
          </button>
          {/* 'Удалить' fits beside 'Исправить' in a 360 px report block; the name says what goes. */}
          <button type="button" className="drv-btn drv-btn--danger" aria-label="Удалить отчёт" disabled={!online || removeReport.isPending} title={online ? undefined : NEEDS_SERVER} onClick={() => void onRemoveReport()}>
            Удалить
          </button>
        </div>
      )}
      {confirmDialog}
    </li>
  );
}

function StoredPhoto({ photo, onRemove, busy }: { photo: ReportPhoto; onRemove: (() => void) | undefined; busy: boolean }) {
  const blob = useQuery(photoBlobQuery(photo));
  return (
    <PhotoThumb
      blob={blob.data ?? null}
      caption={blob.isError ? 'не загрузилось' : photo.width ? `${photo.width}×${photo.height ?? '?'}` : ''}
      onRemove={onRemove}
      removeLabel="Удалить фото"
      busy={busy}
    />
  );
}
