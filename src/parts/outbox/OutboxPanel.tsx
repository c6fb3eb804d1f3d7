/**
 * The outbox, visible: every queued report with its state, 'Отправить сейчас', and removal of an item
 * (confirmed: a removed report never reaches the server). Reports the server refused for good are listed
 * apart under «Не доставлено», with the server's reason: send again, or delete. Above them, the reports the
 * dispatcher disputed, each a tap from its correction: the bar's «Отчёты» counts them too.
 */
import { Modal } from '../../ui/Modal.tsx';
import { useQuery } from '@tanstack/react-query';
import { showToast } from '../../ui/toasts.ts';
import { Link } from 'wouter';
import type { Task } from '../../../contract/entities.ts';
import type { OutboxItemView } from '../../engine/types.ts';
import { getEngine } from '../../engine/engine.ts';
import { useGet } from '../../engine/api.ts';
import { engineState, useEngineSnapshot } from '../../engine/store.ts';
import { isServerReachable, NEEDS_SERVER, useOnline } from '../../engine/use-online.ts';
import { useConfirm } from '../../ui/ConfirmDialog.tsx';
import { formatClock, formatDate, formatQuantity } from '../../ui/format.ts';
import { useObjectUrl } from '../../ui/use-object-url.ts';
import { outboxStateLabel } from './outbox-labels.ts';
import { TRIP_STEP_DONE } from '../../../contract/trips.ts';
import { DisputedReports } from '../report/DisputedReports.tsx';
import { useDisputedReports } from '../report/disputed.ts';
import { ReportFormHost } from '../report/ReportFormHost.tsx';
import '../driver/driver.css';
import '../driver/dialogs.css';
import './outbox.css';

export function OutboxPanel({ onClose }: { onClose: () => void }) {
  const { outbox } = useEngineSnapshot();
  const undelivered = outbox.items.filter((item) => item.state === 'undelivered');
  const queued = outbox.items.filter((item) => item.state !== 'undelivered');
  const online = useOnline();
  const disputed = useDisputedReports().data?.data ?? [];
  const [confirmDialog, confirm] = useConfirm();
  // Names the task of each item; an item whose task already left the list still shows its number.
  const assigned = useGet('GET /tasks/assigned/');
  const taskOf = (associationId: number) =>
    (assigned.data?.data.items ?? []).find((task) => task.driver_associations.some((a) => a.id === associationId));

  async function flush() {
    try {
      // Always tries, also in offline mode: the engine asks the server first.
      await getEngine().flushNow();
      if (!isServerReachable(engineState.snapshot)) showToast('info', 'Сервер пока недоступен: отчёты уйдут, как только он ответит');
    } catch (error) {
      console.error('outbox flush failed', error);
      showToast('error', 'Не удалось запустить отправку');
    }
  }

  async function resend(item: OutboxItemView) {
    try {
      await getEngine().resend(item.id);
      showToast('info', 'Отчёт снова в очереди отправки');
    } catch (error) {
      console.error('outbox resend failed', error);
      showToast('error', 'Не удалось вернуть отчёт в очередь');
    }
  }

  async function discard(item: OutboxItemView) {
    const yes = await confirm({
      title: 'Удалить отчёт из очереди?',
      message: 'Отчёт не будет отправлен, его фото будут удалены с устройства.',
      confirmLabel: 'Удалить',
      danger: true,
    });
    if (!yes) return;
    try {
      await getEngine().discard(item.id);
      showToast('success', 'Отчёт удалён из очереди');
    } catch (error) {
      console.error('outbox discard failed', error);
      showToast('error', 'Не удалось удалить отчёт из очереди');
    }
  }

  return (
    // The correction form opens over the panel, which stays as it was.
    <ReportFormHost>
      <Modal className="drv-drawer" aria-labelledby="drv-outbox-title" onClose={onClose}>
        <div className="drv-drawer__header">
          <h2 id="drv-outbox-title" className="drv-sheet__title">
            Очередь отчётов
          </h2>
          <button type="button" className="drv-icon-btn" aria-label="Закрыть" onClick={onClose}>
            ×
          </button>
        </div>

        <div className="drv-drawer__content">
          {!online ? <p className="drv-notice">{NEEDS_SERVER}: отчёты уйдут, когда она вернётся.</p> : null}
          <DisputedReports reports={disputed} headingLevel={3} />
          {undelivered.length > 0 ? (
            <section className="drv-outbox-undelivered" aria-labelledby="drv-undelivered-title">
              <h3 id="drv-undelivered-title" className="drv-outbox-undelivered__title">
                Не доставлено: {undelivered.length}
              </h3>
              <p className="drv-muted">Сервер не принял эти отчёты. Они хранятся на устройстве с фото: исправьте причину и отправьте снова, или удалите.</p>
              <ul className="drv-outbox-list">
                {undelivered.map((item) => {
                  const task = taskOf(item.association_id);
                  return (
                    <li key={item.id} className="drv-outbox-item drv-outbox-item--undelivered">
                      <ItemSummary item={item} task={task} />
                      <p className="drv-outbox-item__state">{outboxStateLabel(item)}</p>
                      <div className="drv-outbox-item__actions">
                        <button type="button" className="drv-btn drv-btn--primary drv-btn--small" onClick={() => void resend(item)}>
                          Отправить снова
                        </button>
                        <button type="button" className="drv-btn drv-btn--ghost drv-btn--small" onClick={() => void discard(item)}>
                          Удалить
                        </button>
                      </div>
                    </li>
                  );
                })}
              </ul>
            </section>
          ) : null}
          {queued.length === 0 ? (
            <p className="drv-muted">{undelivered.length > 0 ? 'В очереди отправки ничего нет.' : 'Очередь пуста: все отчёты отправлены.'}</p>
          ) : (
            <ul className="drv-outbox-list">
              {queued.map((item) => {
                const task = taskOf(item.association_id);
                return (
                  <li key={item.id} className={`drv-outbox-item drv-outbox-item--${item.state}`}>
                    <ItemSummary item={item} task={task} />
                    <p className="drv-outbox-item__state" aria-live="polite">
                      {outboxStateLabel(item)}
                    </p>
                    {item.state === 'sending' && item.progress !== null ? (
                      <progress className="drv-progress" max={1} value={item.progress} aria-label="Ход отправки" />
                    ) : null}
                    {item.state === 'retry' && item.lastError ? (
                      <p className="drv-muted">Последняя ошибка: {item.lastError}</p>
                    ) : null}
                    {item.state !== 'sending' && item.state !== 'sent' ? (
                      <button type="button" className="drv-btn drv-btn--ghost drv-btn--small" onClick={() => void discard(item)}>
                        Удалить
                      </button>
                    ) : null}
                  </li>
                );
              })}
            </ul>
          )}
          <p className="drv-muted drv-outbox-elsewhere">
            Отправленные отчёты — в карточке задачи («Мои отчёты»), а по выполненным задачам — в{' '}
            <Link href="/statistics" onClick={onClose}>
              «Статистике»
            </Link>
            .
          </p>
        </div>

        <div className="drv-sheet__actions">
          <button type="button" className="drv-btn drv-btn--ghost" onClick={onClose}>
            Закрыть
          </button>
          <button
            type="button"
            className="drv-btn drv-btn--primary"
            disabled={outbox.flushing || outbox.pending === 0}
            title={online ? undefined : 'Проверит связь с сервером и отправит, если он ответит'}
            onClick={() => void flush()}
          >
            {outbox.flushing ? 'Отправляется...' : 'Отправить сейчас'}
          </button>
        </div>
        {confirmDialog}
      </Modal>
    </ReportFormHost>
  );
}

/** A queued per-shift acceptance (issue 32): whose it is and for how many trips. */
const shiftAcceptanceTitle = (a: NonNullable<OutboxItemView['shiftAcceptance']>): string =>
  `${a.kind === 'signed' ? 'Подпись получателя за смену' : 'Отказ получателя от подписи'} · рейсов: ${a.trip_uids.length}`;

/** What a queued report is: its thumbnail, task, quantity, when it was made, photos and attempts. */
function ItemSummary({ item, task }: { item: OutboxItemView; task: Task | undefined }) {
  return (
    <>
      {item.photoCount > 0 && <QueuedThumb id={item.id} />}
      <p className="drv-outbox-item__title">
        {item.shiftAcceptance ? shiftAcceptanceTitle(item.shiftAcceptance) : task ? `${task.cargo}, ${formatDate(task.date)}` : `Отчёт № ${item.id}`}
      </p>
      {/* A trip step (issue 32): which one, and the time it was stamped. */}
      {item.trip ? (
        <p className="drv-outbox-item__step">
          Отметка рейса: {TRIP_STEP_DONE[item.trip.step]} в {formatClock(Date.parse(item.trip.at))}
        </p>
      ) : null}
      <p className="drv-muted">
        {item.quantity !== null ? `${formatQuantity(item.quantity)} ${task?.unit ?? 'т'} · ` : ''}
        создан в {formatClock(item.createdAt)} · фото: {item.photoCount}
        {item.attempts > 0 ? ` · попыток: ${item.attempts}` : ''}
      </p>
    </>
  );
}

/** The first photo of a queued report, read from the engine's queue, so reports of one task can be told apart. */
function QueuedThumb({ id }: { id: number }) {
  const photo = useQuery({ queryKey: ['outbox-photo', id], queryFn: () => getEngine().outboxPhoto(id), staleTime: Infinity, gcTime: 60_000 });
  const url = useObjectUrl(photo.data ?? null);
  return url ? <img src={url} alt="" className="drv-outbox-item__thumb" /> : <span className="drv-outbox-item__thumb" aria-hidden="true" />;
}
