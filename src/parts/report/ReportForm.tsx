/**
 * The report form (from a current task): quantity, the two totals each behind its 'покупатель' flag,
 * photos with compressed previews. A new report goes to the outbox, which delivers it when it can, and its toast
 * follows it there (SubmitToast.tsx: sent, or kept on the phone and why); nothing typed is lost when queuing fails.
 * Correcting a disputed report repeats the dispatcher's reason above the fields.
 *
 * Correcting a stored report (`editing`) saves it in place (save-edit.ts): the changed fields and the added
 * photos in one PUT /reports/{id}; photos marked for removal are deleted when the driver saves, so
 * 'Отмена' undoes everything.
 */
import { useQueries, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Modal } from '../../ui/Modal.tsx';
import { showToast } from '../../ui/toasts.ts';
import type { Report, ReportPhoto, Task } from '../../../contract/entities.ts';
import { requestBackgroundSync } from '../../app/pwa/register.ts';
import { invalidateAfter } from '../../engine/api.ts';
import { getEngine } from '../../engine/engine.ts';
import { useConfirm } from '../../ui/ConfirmDialog.tsx';
import { formatDate } from '../../ui/format.ts';
import { latePayNote } from '../../ui/money.ts';
import { photoBlobQuery } from '../../engine/photo-blob.ts';
import { failureMessage } from '../../engine/send.ts';
import { PhotoInputs, PhotoThumb, newPhotoCaption, useNewPhotos } from './PhotoPicker.tsx';
import { TotalField } from './TotalField.tsx';
import {
  buildReport,
  buildReportEdit,
  draftFromReport,
  emptyDraft,
  isUnsendable,
  newPhotoBytes,
  photosError,
  resolvedErrors,
  type ReportDraft,
  type ReportDraftErrors,
} from './report-payload.ts';
import { hasChanges, saveReportEdit } from './save-edit.ts';
import { undoFiledReport } from './undo-report.ts';
import { SubmitToast } from './SubmitToast.tsx';
import '../driver/dialogs.css';
import { Form } from '../../ui/Form.tsx';

/** Path prefixes of the queries that show reports or their effect on tasks and earnings. */
/** What a report filed, undone or delivered makes stale, by the route table's rule for a report (contract/calls/reports.ts). */
export const refreshAfterReport = (client: QueryClient) => invalidateAfter(client, 'POST', '/reports/');

export type ReportTask = Pick<Task, 'cargo' | 'date' | 'loading_place' | 'unloading_place' | 'unit' | 'driver_pay'>;

export interface ReportFormProps {
  associationId: number;
  task: ReportTask | null;
  editing?: { report: Report; photos: ReportPhoto[] };
  onClose: () => void;
  /** After a new report is in the outbox. */
  onQueued?: () => void;
}

const OFFLINE_EDIT = 'Нет подключения к сети: исправить отчёт можно только онлайн.';

export function ReportForm({ associationId, task, editing, onClose, onQueued }: ReportFormProps) {
  const [original] = useState<ReportDraft>(() => (editing ? draftFromReport(editing.report) : emptyDraft));
  const [draft, setDraft] = useState<ReportDraft>(original);
  const [errors, setErrors] = useState<ReportDraftErrors>({});
  const [submitting, setSubmitting] = useState(false);
  const [droppedOld, setDroppedOld] = useState<number[]>([]);
  // Survives a failed save: the photos it already deleted are not asked for again.
  const removedOnServer = useRef(new Set<number>());
  const newPhotos = useNewPhotos();
  const queryClient = useQueryClient();
  const [confirmDialog, confirm] = useConfirm();

  // The task's month is closed: a new trip is paid in the next open month, and the driver is told so here.
  const paidIn = editing ? undefined : task?.driver_pay?.paid_in;
  const keptOld = (editing?.photos ?? []).filter((photo) => !droppedOld.includes(photo.id));
  const oldBlobs = useQueries({ queries: keptOld.map((photo) => photoBlobQuery(photo)) });

  // The message sits below the photos; on a phone it would be out of sight behind the buttons.
  const formErrorRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (errors.form) formErrorRef.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [errors]);

  const set = (patch: Partial<ReportDraft>) => setDraft((current) => ({ ...current, ...patch }));

  // An error goes as soon as its cause does: a stale «Укажите количество или добавьте фото» after the
  // quantity is typed misleads the driver.
  const photoCount = keptOld.length + newPhotos.photos.length;
  const photoKey = `${droppedOld.join(',')}|${newPhotos.photos.map((p) => p.key).join(',')}`;
  const [errorPhotos, setErrorPhotos] = useState(photoKey);
  const shown = resolvedErrors(errors, draft, photoCount, photoKey !== errorPhotos);
  const dirty = droppedOld.length > 0 || newPhotos.photos.length > 0 || JSON.stringify(draft) !== JSON.stringify(original);

  async function close() {
    const message = editing ? 'Изменения не сохранятся.' : 'Введённые данные и фото не сохранятся.';
    if (dirty && !(await confirm({ title: editing ? 'Закрыть без сохранения?' : 'Закрыть отчёт?', message, confirmLabel: 'Закрыть', danger: true }))) return;
    onClose();
  }

  function showErrors(next: ReportDraftErrors) {
    setErrorPhotos(photoKey);
    setErrors(next);
  }

  function fail(message: string) {
    showErrors({ form: message });
    showToast('error', message);
  }

  async function queueNew() {
    const built = buildReport(associationId, draft, newPhotos.photos.map((p) => p.original));
    if (!built.ok) return showErrors(built.errors);
    setErrors({});
    const result = await getEngine().queueReport(built.report);
    if (!result.ok) return fail(result.message);
    const queuedId = result.data;
    const client = queryClient;
    const final = built.report.final === true;
    const undo = () =>
      void undoFiledReport(queuedId, associationId)
        .then((outcome) =>
          outcome === 'gone'
            ? showToast('info', 'Отчёт уже не найти: отменять нечего')
            : showToast('success', final ? 'Отчёт отменён: задача снова в текущих' : 'Отчёт отменён'),
        )
        .catch((error: unknown) => showToast('error', `Отчёт не отменён: ${failureMessage(error)}`))
        .finally(() => void refreshAfterReport(client));
    // Says what happened as it happens: sending, sent, or kept on the phone and why (SubmitToast.tsx).
    showToast('info', ({ closeToast }) => <SubmitToast outboxId={queuedId} final={final} closeToast={closeToast} onUndo={undo} note={paidIn ? latePayNote(paidIn) : undefined} />, { autoClose: 10_000 });
    // The service worker may deliver it even if the driver closes the app before the network returns.
    void requestBackgroundSync();
    onQueued?.();
    onClose();
  }

  async function saveEdit(report: Report) {
    const added = newPhotos.photos.map((p) => p.original);
    const built = buildReportEdit(original, draft, keptOld.length + added.length);
    if (!built.ok) return showErrors(built.errors);
    setErrors({});
    const edit = { reportId: report.id, fields: built.fields, addedPhotos: added, removedPhotoIds: droppedOld };
    if (!hasChanges(edit)) return onClose();
    try {
      await saveReportEdit(edit, removedOnServer.current);
      showToast('success', 'Отчёт исправлен');
      onClose();
    } catch (error) {
      fail(failureMessage(error, OFFLINE_EDIT));
    } finally {
      // Also after a failure: some photos may be gone already. The declaration says what is stale.
      void invalidateAfter(queryClient, 'PUT', `/reports/${report.id}`);
    }
  }

  async function submit() {
    const problem = photosError(
      keptOld.length + newPhotos.photos.length,
      newPhotos.photos.filter(isUnsendable).length,
      newPhotoBytes(newPhotos.photos),
    );
    if (problem) return showErrors({ form: problem });
    setSubmitting(true);
    try {
      await (editing ? saveEdit(editing.report) : queueNew());
    } catch (error) {
      fail(failureMessage(error));
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <Modal className="drv-sheet" aria-labelledby="drv-report-title" onClose={() => void close()}>
      <Form className="drv-sheet__form" onSubmit={submit}>
        <div className="drv-sheet__header">
          <h2 id="drv-report-title" className="drv-sheet__title">
            {editing ? 'Исправление отчёта' : 'Отчёт по рейсу'}
          </h2>
          {task ? (
            <p className="drv-sheet__subtitle">
              {task.cargo}, {formatDate(task.date)}: {task.loading_place} → {task.unloading_place}
            </p>
          ) : null}
          {editing ? null : <p className="drv-sheet__subtitle">Рейс вносится задним числом, одной формой: он будет отмечен так.</p>}
          {paidIn ? (
            <p className="drv-notice" role="note">
              {latePayNote(paidIn)}
            </p>
          ) : null}
        </div>

        <div className="drv-sheet__content">
          {editing?.report.review_status === 'disputed' ? (
            <p className="drv-notice drv-notice--danger drv-dispute-reason">
              Диспетчер оспорил отчёт: «{editing.report.review_comment ?? 'причина не указана'}». Исправьте данные или фото и сохраните — отчёт
              снова уйдёт на проверку.
            </p>
          ) : null}
          <label className="drv-field">
            <span className="drv-field__label">Количество{task ? `, ${task.unit}` : ''}</span>
            <input
              className="drv-input"
              inputMode="decimal"
              autoComplete="off"
              value={draft.quantity}
              aria-invalid={Boolean(shown.quantity)}
              onChange={(event) => set({ quantity: event.target.value })}
            />
            {shown.quantity ? <span className="drv-field__error">{shown.quantity}</span> : null}
          </label>

          <div className="drv-row">
            <label className="drv-field drv-field--narrow">
              <span className="drv-field__label">Рейсов</span>
              <input
                className="drv-input"
                inputMode="numeric"
                autoComplete="off"
                value={draft.trips}
                aria-invalid={Boolean(shown.trips)}
                aria-describedby="drv-trips-hint"
                onChange={(event) => set({ trips: event.target.value })}
              />
              {shown.trips ? <span className="drv-field__error">{shown.trips}</span> : null}
            </label>
            <label className="drv-field">
              <span className="drv-field__label">Номер талона</span>
              <input
                className="drv-input"
                autoComplete="off"
                maxLength={40}
                placeholder="необязательно"
                value={draft.ticketNumber}
                aria-invalid={Boolean(shown.ticketNumber)}
                onChange={(event) => set({ ticketNumber: event.target.value })}
              />
              {shown.ticketNumber ? <span className="drv-field__error">{shown.ticketNumber}</span> : null}
            </label>
          </div>
          <p className="drv-field__hint" id="drv-trips-hint">
            Обычно один отчёт — один рейс с талоном. Несколько рейсов одним отчётом: укажите их число и общее количество.
          </p>
          {editing ? null : (
            <fieldset className="drv-fieldset">
              <legend className="drv-field__label">Время рейса, если вносите его задним числом</legend>
              <div className="drv-row drv-row--even">
                <TypedTime label="Прибытие на погрузку" value={draft.loadingArrived ?? ''} error={shown.loadingArrived} onChange={(loadingArrived) => set({ loadingArrived })} />
                <TypedTime label="Выезд с погрузки" value={draft.loadingDeparted ?? ''} error={shown.loadingDeparted} onChange={(loadingDeparted) => set({ loadingDeparted })} />
              </div>
              <div className="drv-row drv-row--even">
                <TypedTime label="Прибытие на выгрузку" value={draft.unloadingArrived ?? ''} error={shown.unloadingArrived} onChange={(unloadingArrived) => set({ unloadingArrived })} />
                <TypedTime label="Выезд с выгрузки" value={draft.unloadingDeparted ?? ''} error={shown.unloadingDeparted} onChange={(unloadingDeparted) => set({ unloadingDeparted })} />
              </div>
              <p className="drv-field__hint">Сегодняшнее время, необязательно. Рейс будет отмечен «внесён задним числом».</p>
            </fieldset>
          )}

          <p className="drv-field__hint" id="drv-buyer-hint">
            Общее количество — по весам покупателя: отметьте «покупатель», чтобы указать его. Без отметки поле не заполняется и в
            отчёт не попадает.
          </p>
          <TotalField
            label="Общее количество на погрузке"
            value={draft.totalLoading}
            flag={draft.loadingIsBuyer}
            error={shown.totalLoading}
            onValue={(totalLoading) => set({ totalLoading })}
            onFlag={(loadingIsBuyer) => set(loadingIsBuyer ? { loadingIsBuyer } : { loadingIsBuyer, totalLoading: '' })}
          />
          <TotalField
            label="Общее количество на выгрузке"
            value={draft.totalUnloading}
            flag={draft.unloadingIsBuyer}
            error={shown.totalUnloading}
            onValue={(totalUnloading) => set({ totalUnloading })}
            onFlag={(unloadingIsBuyer) =>
              set(unloadingIsBuyer ? { unloadingIsBuyer } : { unloadingIsBuyer, totalUnloading: '' })
            }
          />

          <fieldset className="drv-fieldset">
            <legend className="drv-field__label">Фото</legend>
            <PhotoInputs onFiles={newPhotos.add} disabled={submitting} />
            <ul className="drv-thumbs" aria-label="Фото отчёта">
              {keptOld.map((photo, index) => (
                <PhotoThumb
                  key={`old-${photo.id}`}
                  blob={oldBlobs[index]?.data ?? null}
                  caption={oldBlobs[index]?.isError ? 'не загрузилось' : 'прежнее фото'}
                  onRemove={() => setDroppedOld((ids) => [...ids, photo.id])}
                  busy={submitting}
                />
              ))}
              {newPhotos.photos.map((photo) => (
                <PhotoThumb
                  key={photo.key}
                  blob={isUnsendable(photo) ? null : photo.preview}
                  caption={isUnsendable(photo) ? 'не подходит' : newPhotoCaption(photo)}
                  onRemove={() => newPhotos.remove(photo.key)}
                  busy={submitting}
                />
              ))}
            </ul>
          </fieldset>

          {editing ? null : (
            <label className="drv-final">
              <input type="checkbox" checked={draft.final} onChange={(event) => set({ final: event.target.checked })} />
              <span>
                <strong>Последний рейс — завершить задачу</strong>
                <span className="drv-field__hint">Задача уйдёт из текущих в «Статистику». Без отметки она останется для следующих рейсов.</span>
              </span>
            </label>
          )}

          {shown.form ? (
            <p className="drv-form-error" role="alert" ref={formErrorRef}>
              {shown.form}
            </p>
          ) : null}
        </div>

        <div className="drv-sheet__actions">
          <button type="button" className="drv-btn drv-btn--ghost" onClick={() => void close()} disabled={submitting}>
            Отмена
          </button>
          <button type="submit" className="drv-btn drv-btn--primary" disabled={submitting}>
            {submitting ? 'Сохраняем...' : editing ? 'Сохранить' : 'Отправить отчёт'}
          </button>
        </div>
      </Form>
      {confirmDialog}
    </Modal>
  );
}

/** One typed time of a trip entered after the fact ('ЧЧ:ММ', today). */
function TypedTime({ label, value, error, onChange }: { label: string; value: string; error: string | undefined; onChange: (value: string) => void }) {
  return (
    <label className="drv-field">
      <span className="drv-field__label">{label}</span>
      <input type="time" className="drv-input" value={value} aria-invalid={Boolean(error)} onChange={(event) => onChange(event.target.value)} />
      {error ? <span className="drv-field__error">{error}</span> : null}
    </label>
  );
}
