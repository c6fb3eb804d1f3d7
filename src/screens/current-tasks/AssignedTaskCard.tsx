/**
 * One current task, compact for a phone: its facts with the driver's progress, then two toggles — the quantities
 * and «Мои отчёты» start folded (the reports open by themselves when the dispatcher disputed one) — and the actions
 * within thumb's reach.
 */
import { memo, useState } from 'react';
import { showToast } from '../../ui/toasts.ts';
import { NEEDS_SERVER } from '../../engine/use-online.ts';
import type { OwnTask } from '../../parts/driver/own-tasks.ts';
import { DRIVER_STATUS_LABELS } from '../../ui/statuses.ts';
import { failureMessage } from '../../engine/send.ts';
import { useSend } from '../../engine/api.ts';
import { useConfirm } from '../../ui/ConfirmDialog.tsx';
import { LoadProgress } from '../../ui/LoadProgress.tsx';
import { formatQuantity, formatTrips } from '../../ui/format.ts';
import { TaskSummary } from '../../parts/driver/TaskSummary.tsx';
import { ReportList } from '../../parts/report/AssociationReports.tsx';
import { useOpenReportForm } from '../../parts/report/ReportFormHost.tsx';
import { QuantityForm } from './QuantityForm.tsx';
import { TripPanel } from '../../parts/driver/TripPanel.tsx';
import { TripWaybills } from '../../parts/driver/TripWaybills.tsx';
import { currentSnapshot, useEngineSelector } from '../../engine/store.ts';
import type { Snapshot } from '../../engine/types.ts';

/** The toggles' arrow: a drawing, so it stays out of their names. */
const CHEVRON = (
  <svg className="drv-fold__chevron" viewBox="0 0 12 12" width="12" height="12" aria-hidden="true" focusable="false">
    <path d="M2 4.5 6 8.5l4-4" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
  </svg>
);

interface Props extends OwnTask {
  online: boolean;
}

/** How many items of the association are in the outbox and not yet on the server (nor given up). */
const queuedOf = (s: Snapshot, associationId: number) =>
  s.outbox.items.filter((item) => item.association_id === associationId && item.state !== 'sent' && item.state !== 'undelivered').length;

/** «В очереди»: its own small subscriber, so a tap's step re-renders this line and the trip panel, not the card. */
function QueuedNotice({ associationId }: { associationId: number }) {
  const queued = useEngineSelector((s) => queuedOf(s, associationId) > 0);
  return queued ? <p className="drv-notice drv-notice--info">Отметки или отчёты в очереди отправки</p> : null;
}

/** Memoised: the list re-renders on its own queries; a card only when its task or its part changed. */
export const AssignedTaskCard = memo(function AssignedTaskCard({ task, association, online }: Props) {
  const openReportForm = useOpenReportForm();
  const start = useSend('PUT /tasks/:id/');
  const finish = useSend('PUT /tasks/:id/');
  const [confirmElement, ask] = useConfirm();
  const [quantitiesOpen, setQuantitiesOpen] = useState(false);
  const [reportsOpen, setReportsOpen] = useState(association.disputed > 0);
  // A dispute arriving while the card is on screen opens the reports, where its reason is.
  const [disputedSeen, setDisputedSeen] = useState(association.disputed);
  if (association.disputed !== disputedSeen) {
    setDisputedSeen(association.disputed);
    if (association.disputed > disputedSeen) setReportsOpen(true);
  }
  // Typed and not saved: said on the toggle too, so folding the fields never hides it.
  const [quantitiesUnsaved, setQuantitiesUnsaved] = useState(false);
  const quantitiesId = `drv-quantities-${association.id}`;
  const reportsId = `drv-reports-${association.id}`;

  async function finishTask() {
    const yes = await ask({
      title: 'Завершить задачу?',
      message:
        queuedOf(currentSnapshot(), association.id) > 0
          ? 'В очереди есть неотправленные отчёты по этой задаче: они уйдут, когда появится связь. Дальше задача будет в «Статистике»; снова открыть её может только диспетчер.'
          : `Сделано: ${formatTrips(association.trips)}, ${formatQuantity(association.delivered, task.unit)} из ${formatQuantity(association.share, task.unit)}. Задача уйдёт в «Статистику»; снова открыть её может только диспетчер.`,
      confirmLabel: 'Завершить',
    });
    if (!yes) return;
    try {
      await finish.mutateAsync({ params: { id: task.id }, body: { status: 'completed' } });
      showToast('success', 'Задача завершена');
    } catch (error) {
      showToast('error', failureMessage(error, 'Нет подключения к сети: задача не завершена.'));
    }
  }

  async function startTrip() {
    try {
      await start.mutateAsync({ params: { id: task.id }, body: { status: 'in_progress' } });
      showToast('success', 'Рейс начат');
    } catch (error) {
      showToast('error', failureMessage(error, 'Нет подключения к сети: статус не изменён.'));
    }
  }

  // Remounting the fields when the stored values change shows what the server now holds,
  // while a failed save (values unchanged) keeps what the driver typed.
  const quantityKey = [association.id, association.quantity, association.loading_quantity, association.unloading_quantity].join(':');

  return (
    <li className="drv-card">
      {confirmElement}
      <TaskSummary
        task={task}
        headingLevel={2}
        share={association.share}
        badge={<span className={`drv-badge drv-badge--${association.status}`}>{DRIVER_STATUS_LABELS[association.status]}</span>}
        progress={<LoadProgress label="Ваша доля" delivered={association.delivered} of={association.share} unit={task.unit} trips={association.trips} />}
        guide="folded"
      />
      {/* The trip as it happens leads the card: the next step's big button, then the timeline (issue 32). */}
      <TripPanel task={task} association={association} />
      {/* Each trip's waybill: its state and, once accepted, the УИД and QR (issue 33). */}
      <TripWaybills waybills={task.waybills ?? []} />
      <QueuedNotice associationId={association.id} />
      {association.disputed > 0 ? (
        <p className="drv-notice drv-notice--danger" role="status">
          Диспетчер оспорил {association.disputed === 1 ? 'отчёт' : `отчёты (${association.disputed})`}: откройте «Мои отчёты», прочитайте причину и исправьте.
        </p>
      ) : null}
      <div className="drv-folds">
        <button
          type="button"
          className="drv-fold"
          aria-expanded={quantitiesOpen}
          aria-controls={quantitiesId}
          onClick={() => setQuantitiesOpen((open) => !open)}
        >
          Количество
          {quantitiesUnsaved ? (
            <span className="drv-fold__unsaved" title="Не сохранено">
              <span className="drv-visually-hidden">: не сохранено</span>
            </span>
          ) : null}
          {CHEVRON}
        </button>
        <button
          type="button"
          className="drv-fold"
          aria-expanded={reportsOpen}
          aria-controls={reportsId}
          onClick={() => setReportsOpen((open) => !open)}
        >
          Мои отчёты
          {association.report_count > 0 ? (
            <span className="drv-fold__count">
              <span className="drv-visually-hidden">: </span>
              {association.report_count}
            </span>
          ) : null}
          {CHEVRON}
        </button>
      </div>
      {/* Folded, not unmounted: what the driver typed stays while the fields are hidden. */}
      <div id={quantitiesId} className="drv-fold__panel" hidden={!quantitiesOpen}>
        <QuantityForm key={quantityKey} association={association} unit={task.unit} disabled={!online} onUnsavedChange={setQuantitiesUnsaved} />
      </div>
      <div id={reportsId} className="drv-fold__panel" hidden={!reportsOpen}>
        {reportsOpen ? <ReportList associationId={association.id} task={task} /> : null}
      </div>
      <div className="drv-card__actions drv-card__actions--sticky">
        {association.status === 'accepted' ? (
          <button
            type="button"
            className="drv-btn drv-btn--ghost"
            disabled={!online || start.isPending}
            title={online ? undefined : NEEDS_SERVER}
            onClick={() => void startTrip()}
          >
            {start.isPending ? 'Начинаем...' : 'Начать рейс'}
          </button>
        ) : null}
        {association.trips > 0 ? (
          <button
            type="button"
            className="drv-btn drv-btn--ghost"
            disabled={!online || finish.isPending}
            title={online ? undefined : NEEDS_SERVER}
            onClick={() => void finishTask()}
          >
            {finish.isPending ? 'Завершаем...' : 'Завершить задачу'}
          </button>
        ) : null}
        <button type="button" className="drv-btn drv-btn--ghost" onClick={() => openReportForm({ associationId: association.id, task })}>
          Внести рейс задним числом
        </button>
      </div>
    </li>
  );
});
