/**
 * /reports/{id}: one report for staff — who reported what on which task, both times
 * (the device's and the server's), the trip's timeline with its waits and the receiver's acceptance
 * (TripTimeline.tsx), the photos as a gallery, and the other reports of the same assignment.
 */
import { REVIEW_LABELS } from '../../ui/statuses.ts';
import '../../ui/status-badge.css';
import { History } from '../../ui/console/History.tsx';
import { Link, useLocation, useParams } from 'wouter';
import { showToast } from '../../ui/toasts.ts';
import type { ReportPhoto, ReportView } from '../../../contract/entities.ts';
import type { ScreenProps } from '../../app/nav.ts';
import { sendOnce, useGet, useSend } from '../../engine/api.ts';
import { useNeedsServer } from '../../engine/use-online.ts';
import { CacheNote } from '../../ui/CacheNote.tsx';
import { useConfirm } from '../../ui/ConfirmDialog.tsx';
import { formatDate, formatDateTime, formatMoney, formatQuantity, formatRate, formatTrips } from '../../ui/format.ts';
import { CLOSED_LOAD_NOTE, rateNote } from '../../ui/money.ts';
import { NeedsServerHint } from '../../ui/NeedsServerHint.tsx';
import { Page } from '../../ui/Page.tsx';
import { Loading, ErrorState } from '../../ui/states.tsx';
import { StatusBadge } from '../../ui/StatusBadge.tsx';
import { Gallery } from './Gallery.tsx';
import { TripTimeline } from './TripTimeline.tsx';
import { ReportPapers } from '../../parts/report/ReportPapers.tsx';
import { CustomerDisputes } from './CustomerDisputes.tsx';
import './report-view.css';

export function ReportViewScreen({ title }: ScreenProps) {
  const params = useParams<{ id: string }>();
  const id = Number(params.id);
  const valid = Number.isSafeInteger(id) && id > 0;
  const query = useGet(valid ? 'GET /reports/:id' : null, { id });
  const pageTitle = valid ? `${title} №${id}` : title;
  if (!valid) return <Page title={title}><ErrorState message="Неверный номер отчёта." /></Page>;
  if (query.isPending) return <Page title={pageTitle}><Loading text="Загрузка отчёта..." /></Page>;
  if (query.isError) {
    return (
      <Page title={pageTitle}>
        <ErrorState message={query.error.status === 404 ? 'Отчёт не найден: его удалили.' : query.error.message} onRetry={() => void query.refetch()} />
        <Link href="/tasks/manage">К списку задач</Link>
      </Page>
    );
  }
  return (
    <Page title={pageTitle} wide aside={<CacheNote fromCache={query.data.fromCache} storedAt={query.data.storedAt} />}>
      <ReportDetails report={query.data.data} />
      <History entity="report" id={query.data.data.id} />
      {/* The trip's papers: the proof of delivery, the paper waybill, the ЭТрН titles and what they lack. */}
      <ReportPapers reportId={query.data.data.id} taskId={query.data.data.task.id} />
    </Page>
  );
}

function ReportDetails({ report }: { report: ReportView }) {
  const server = useNeedsServer();
  const [confirmElement, ask] = useConfirm();
  const [, navigate] = useLocation();
  const others = useGet('GET /reports/association/:id', { id: report.association_id });
  const removePhoto = useSend('DELETE /reports/:id/photo');
  const { task, association } = report;
  const unit = task.unit;

  async function deletePhoto(photo: ReportPhoto): Promise<void> {
    const index = report.photos.findIndex((p) => p.id === photo.id) + 1;
    const yes = await ask({ title: `Удалить фото ${index} из отчёта №${report.id}?`, message: <p>Фото будет удалено без возможности восстановления.</p>, confirmLabel: 'Удалить фото', danger: true });
    if (!yes) return;
    try {
      await removePhoto.mutateAsync({ params: { id: report.id }, query: { photo_id: photo.id } });
      showToast('success', 'Фото удалено');
    } catch (error) {
      showToast('error', `Фото не удалено: ${(error as Error).message}`);
    }
  }

  async function deleteReport(): Promise<void> {
    const yes = await ask({
      title: `Удалить отчёт №${report.id}${report.driver_name ? ` (водитель: ${report.driver_name})` : ''}?`,
      message: <p>Отчёт и его фото ({report.photos.length}) будут удалены. Задача вернётся водителю в текущие, если других отчётов по ней нет.</p>,
      confirmLabel: 'Удалить отчёт',
      danger: true,
    });
    if (!yes) return;
    try {
      // Not useSend: refetching this report now would answer 404 on the screen being left.
      await sendOnce('DELETE /reports/:id', { params: { id: report.id } });
      showToast('success', `Отчёт №${report.id} удалён`);
      navigate(`/tasks/create?id=${task.id}`);
    } catch (error) {
      showToast('error', `Отчёт не удалён: ${(error as Error).message}`);
    }
  }

  const otherReports = (others.data?.data ?? []).filter((r) => r.id !== report.id);
  return (
    <div className="report-view">
      {confirmElement}
      <section className="card report-facts">
        <h2>
          {report.driver_name ?? 'Водитель'} · <Link href={`/tasks/create?id=${task.id}`}>задача №{task.id} «{task.cargo}»</Link>
        </h2>
        <dl className="facts">
          <dt>Дата задачи</dt>
          <dd>{formatDate(task.date)}</dd>
          <dt>Маршрут</dt>
          <dd>
            {task.loading_place} → {task.unloading_place}
          </dd>
          <dt>План задачи</dt>
          <dd>{formatQuantity(task.planned_quantity, unit)}</dd>
          <dt>Статус задачи</dt>
          <dd>
            <StatusBadge status={task.status} />
          </dd>
          <dt>Назначение водителя</dt>
          <dd>
            <StatusBadge status={association.status} kind="driver" /> · {association.transport_rate === null ? 'ставка по шкале компании' : `ставка водителя ${formatRate(association.transport_rate, unit)}`}
          </dd>
          <dt>Перевезено по отчёту</dt>
          <dd className="report-quantity">
            {formatQuantity(report.quantity, unit)}
            {report.trips > 1 ? ` за ${formatTrips(report.trips)}` : ''}
            {report.final ? ' · последний рейс' : ''}
          </dd>
          <dt>Талон</dt>
          <dd>{report.ticket_number ?? '—'}</dd>
          <dt>{report.pay.estimate ? 'Оплата после проверки' : 'Оплата водителю'}</dt>
          <dd>
            {formatQuantity(report.pay.delivered, unit)} × {formatRate(report.pay.rate, unit)} = <strong>{formatMoney(report.pay.amount)}</strong>
            <span className="muted"> ({rateNote({ ...report.pay, rate_source: report.pay.source, unit })}{report.pay.estimate ? '; оплачивается, когда отчёт принят' : ''})</span>
          </dd>
          <dt>Проверка</dt>
          <dd>
            <span className={`status-badge review-${report.review_status}`}>{REVIEW_LABELS[report.review_status]}</span>
            {report.review_comment ? ` · «${report.review_comment}»` : ''}
            {report.flags.length === 0 ? (
              <span className="muted"> · автоматическая проверка ничего не нашла</span>
            ) : (
              <ul className="report-view-flags">
                {report.flags.map((flag) => (
                  <li key={flag.code}>{flag.detail}</li>
                ))}
              </ul>
            )}
          </dd>
          <dt>Погрузка</dt>
          <dd>
            {report.loading_is_buyer
              ? `${formatQuantity(report.total_loading_quantity, unit)} — по данным покупателя`
              : 'по данным водителя (покупатель не указывал общий объём)'}
          </dd>
          <dt>Выгрузка</dt>
          <dd>
            {report.unloading_is_buyer
              ? `${formatQuantity(report.total_unloading_quantity, unit)} — по данным покупателя`
              : 'по данным водителя (покупатель не указывал общий объём)'}
          </dd>
          <dt>Завершено на устройстве</dt>
          <dd>{formatDateTime(report.completed_at)}</dd>
          <dt>Получено сервером</dt>
          <dd>{formatDateTime(report.created_at)}</dd>
          {report.updated_at !== report.created_at && (
            <>
              <dt>Изменено</dt>
              <dd>{formatDateTime(report.updated_at)}</dd>
            </>
          )}
        </dl>
      </section>
      <TripTimeline trip={report} companyId={task.company_id} />
      <CustomerDisputes disputes={report.customer_disputes} offline={server.offline} />
      <section className="card">
        <h2>Фото ({report.photos.length})</h2>
        <Gallery photos={report.photos} {...(report.closed ? {} : { onDelete: (photo: ReportPhoto) => void deletePhoto(photo) })} disabled={server.offline} />
      </section>
      <section className="card">
        <h2>Другие отчёты по этому назначению</h2>
        {others.isPending ? (
          <Loading />
        ) : otherReports.length === 0 ? (
          <p className="muted">Других отчётов нет.</p>
        ) : (
          <ul className="report-others">
            {otherReports.map((r) => (
              <li key={r.id}>
                <Link href={`/reports/${r.id}`}>Отчёт №{r.id}</Link> · {formatQuantity(r.quantity, unit)} · {formatDateTime(r.created_at)} · фото: {r.photos.length}
              </li>
            ))}
          </ul>
        )}
      </section>
      <div className="report-actions">
        {report.closed ? (
          // Its month is closed and it is in the stored sheet: nothing here may change it (WAGES.md «Месяц закрыт»).
          <p className="muted" role="note">
            {CLOSED_LOAD_NOTE}
          </p>
        ) : (
          <>
            <button type="button" className="button button-danger" disabled={server.offline} title={server.reason} onClick={() => void deleteReport()}>
              Удалить отчёт
            </button>
            <NeedsServerHint offline={server.offline} what="удалять отчёты и фото" />
          </>
        )}
      </div>
    </div>
  );
}
