/**
 * The report form (from a current task): quantity, the two totals each behind its 'покупатель' flag,
 * photos with compressed previews. Submitting hands the report to the outbox, which delivers it when
 * it can; nothing typed is lost when queuing fails.
 *
 * Correcting a stored report (`replacing`) is a re-submit: the server's PUT /reports/{id} takes multipart
 * and the engine sends JSON only, so the old report is deleted (after a confirmation) and the corrected
 * one, with the kept old photos, is queued.
 */
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { toast } from 'react-toastify';
import type { Report, ReportPhoto, Task } from '../../../contract/entities.ts';
import { getEngine } from '../../engine/engine.ts';
import { useConfirm } from '../driver-common/ConfirmDialog.tsx';
import { formatDate } from '../driver-common/format.ts';
import { photoBlobQuery } from '../driver-common/photo-blob.ts';
import { failureMessage, invalidatePaths, sendThroughEngine } from '../driver-common/send.ts';
import { PhotoInputs, PhotoThumb, newPhotoCaption, useNewPhotos } from './PhotoPicker.tsx';
import { TotalField } from './TotalField.tsx';
import { buildReport, draftFromReport, emptyDraft, type ReportDraft, type ReportDraftErrors } from './report-payload.ts';
import '../driver-common/dialogs.css';

/** Path prefixes of the queries that show reports or their effect on tasks and earnings. */
export const REPORT_QUERIES = ['/reports/', '/tasks/assigned/', '/tasks/driver/completed', '/wages/driver/'];

export type ReportTask = Pick<Task, 'cargo' | 'date' | 'loading_place' | 'unloading_place' | 'unit'>;

export interface ReportFormProps {
  associationId: number;
  task: ReportTask | null;
  replacing?: { report: Report; photos: ReportPhoto[] };
  onClose: () => void;
  /** After the report is in the outbox (and, when correcting, the old one is gone). */
  onQueued?: () => void;
}

export function ReportForm({ associationId, task, replacing, onClose, onQueued }: ReportFormProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const [draft, setDraft] = useState<ReportDraft>(() => (replacing ? draftFromReport(replacing.report) : emptyDraft));
  const [errors, setErrors] = useState<ReportDraftErrors>({});
  const [submitting, setSubmitting] = useState(false);
  const [oldDeleted, setOldDeleted] = useState(false);
  const [droppedOld, setDroppedOld] = useState<number[]>([]);
  const newPhotos = useNewPhotos();
  const queryClient = useQueryClient();
  const [confirmDialog, confirm] = useConfirm();

  const keptOld = (replacing?.photos ?? []).filter((photo) => !droppedOld.includes(photo.id));
  const oldBlobs = useQueries({ queries: keptOld.map((photo) => photoBlobQuery(photo)) });
  const oldLoading = oldBlobs.some((q) => q.isPending);
  const oldFailed = oldBlobs.some((q) => q.isError);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);

  const set = (patch: Partial<ReportDraft>) => setDraft((current) => ({ ...current, ...patch }));
  const dirty = oldDeleted || newPhotos.photos.length > 0 || JSON.stringify(draft) !== JSON.stringify(replacing ? draftFromReport(replacing.report) : emptyDraft);

  async function close() {
    if (dirty && !(await confirm({ title: 'Закрыть отчёт?', message: 'Введённые данные и фото не сохранятся.', confirmLabel: 'Закрыть', danger: true }))) return;
    onClose();
  }

  async function submit() {
    if (oldFailed) {
      setErrors({ form: 'Не удалось загрузить прежние фото. Проверьте сеть или уберите их из отчёта.' });
      return;
    }
    const photos = [...oldBlobs.map((q) => q.data).filter((b): b is Blob => b !== undefined), ...newPhotos.photos.map((p) => p.original)];
    const built = buildReport(associationId, draft, photos);
    if (!built.ok) {
      setErrors(built.errors);
      return;
    }
    setErrors({});
    setSubmitting(true);
    try {
      if (replacing && !oldDeleted) {
        const yes = await confirm({
          title: 'Исправить отчёт?',
          message: 'Прежний отчёт будет удалён, исправленный — поставлен в очередь отправки.',
          confirmLabel: 'Исправить',
          danger: true,
        });
        if (!yes) return;
        await sendThroughEngine({ method: 'DELETE', path: `/reports/${replacing.report.id}` });
        // Remembered so that a retry after a failed queueing does not delete twice.
        setOldDeleted(true);
        void invalidatePaths(queryClient, REPORT_QUERIES);
      }
      const result = await getEngine().queueReport(built.report);
      if (!result.ok) {
        setErrors({ form: result.message });
        toast.error(result.message);
        return;
      }
      toast.success('Отчёт поставлен в очередь отправки');
      onQueued?.();
      onClose();
    } catch (error) {
      const message = failureMessage(error, 'Нет подключения к сети: исправить отчёт можно только онлайн.');
      setErrors({ form: message });
      toast.error(message);
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <dialog
      ref={dialogRef}
      className="drv-sheet"
      aria-labelledby="drv-report-title"
      onCancel={(event) => {
        event.preventDefault();
        void close();
      }}
    >
      <form
        className="drv-sheet__form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <div className="drv-sheet__header">
          <h2 id="drv-report-title" className="drv-sheet__title">
            {replacing ? 'Исправление отчёта' : 'Отчёт по рейсу'}
          </h2>
          {task ? (
            <p className="drv-sheet__subtitle">
              {task.cargo}, {formatDate(task.date)}: {task.loading_place} → {task.unloading_place}
            </p>
          ) : null}
        </div>

        <div className="drv-sheet__content">
          <label className="drv-field">
            <span className="drv-field__label">Количество{task ? `, ${task.unit}` : ''}</span>
            <input
              className="drv-input"
              inputMode="decimal"
              autoComplete="off"
              value={draft.quantity}
              aria-invalid={Boolean(errors.quantity)}
              onChange={(event) => set({ quantity: event.target.value })}
            />
            {errors.quantity ? <span className="drv-field__error">{errors.quantity}</span> : null}
          </label>

          <TotalField
            label="Общее количество на погрузке"
            value={draft.totalLoading}
            flag={draft.loadingIsBuyer}
            error={errors.totalLoading}
            onValue={(totalLoading) => set({ totalLoading })}
            onFlag={(loadingIsBuyer) => set(loadingIsBuyer ? { loadingIsBuyer } : { loadingIsBuyer, totalLoading: '' })}
          />
          <TotalField
            label="Общее количество на выгрузке"
            value={draft.totalUnloading}
            flag={draft.unloadingIsBuyer}
            error={errors.totalUnloading}
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
                  blob={photo.preview}
                  caption={newPhotoCaption(photo)}
                  onRemove={() => newPhotos.remove(photo.key)}
                  busy={submitting}
                />
              ))}
            </ul>
          </fieldset>

          {errors.form ? (
            <p className="drv-form-error" role="alert">
              {errors.form}
            </p>
          ) : null}
        </div>

        <div className="drv-sheet__actions">
          <button type="button" className="drv-btn drv-btn--ghost" onClick={() => void close()} disabled={submitting}>
            Отмена
          </button>
          <button type="submit" className="drv-btn drv-btn--primary" disabled={submitting || oldLoading}>
            {submitting ? 'Сохраняем...' : oldLoading ? 'Загружаем фото...' : 'Отправить отчёт'}
          </button>
        </div>
      </form>
      {confirmDialog}
    </dialog>
  );
}
