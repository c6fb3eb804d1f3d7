/**
 * The per-shift acceptance on the driver's phone (issue 32, docs/trips.md): when the company asks for one
 * signature a shift, the card «Подпись получателя за смену» lists the day's finished trips the phone knows
 * (offline too: read from the engine's outbox) that nobody signed for yet; the receiver types the name (and
 * position) and signs once for them, or the driver records «Получатель отказался подписать» with the reason.
 * The engine queues it (one key, exactly once, kept across a reload) and sends it as POST /trips/acceptance;
 * the trips then read «подписано за смену».
 */
import { useState } from 'react';
import type { Task } from '../../../contract/entities.ts';
import { TRIP_STEP_DONE } from '../../../contract/trips.ts';
import { requestBackgroundSync } from '../../app/pwa/register.ts';
import { getEngine } from '../../engine/engine.ts';
import { formatClock } from '../../ui/format.ts';
import { showToast } from '../../ui/toasts.ts';
import { AcceptanceFields, useAcceptance } from './AcceptanceFields.tsx';
import { DriverSheet } from './DriverSheet.tsx';
import { readPosition } from './position.ts';
import type { ShiftTrip } from './trip-state.ts';
import './trip.css';

const ACCEPTED_WORDS: Record<string, string> = { sent: 'подписано за смену', undelivered: 'подпись не доставлена' };

interface Props {
  trips: ShiftTrip[];
  /** A trip's task, to name its cargo (a finished task may be gone from the list: then none). */
  associationTask: (associationId: number) => Task | undefined;
}

export function ShiftAcceptancePanel({ trips, associationTask }: Props) {
  const [open, setOpen] = useState(false);
  const waiting = trips.filter((t) => t.accepted === null);
  return (
    <section className="drv-card drv-shift" aria-labelledby="drv-shift-title">
      <h2 id="drv-shift-title" className="drv-trip__title">
        Подпись получателя за смену
      </h2>
      <p className="drv-field__hint">
        {waiting.length > 0
          ? `Рейсов без подписи за сегодня: ${waiting.length}. В конце дня получатель расписывается один раз за все.`
          : 'Все рейсы за сегодня подписаны.'}
      </p>
      <ul className="drv-shift__trips" aria-label="Рейсы за смену">
        {trips.map((trip) => {
          const task = associationTask(trip.association_id);
          return (
            <li key={trip.uid} className="drv-shift__trip">
              <span className="drv-trip__time">{formatClock(Date.parse(trip.unloadedAt))}</span>
              <span className="drv-trip__name">
                {TRIP_STEP_DONE.unloading_departed}
                {task ? ` · ${task.cargo}` : ''}
              </span>
              <span className="drv-trip__meta">{trip.accepted === null ? 'без подписи' : (ACCEPTED_WORDS[trip.accepted] ?? 'подписано за смену · в очереди')}</span>
            </li>
          );
        })}
      </ul>
      {waiting.length > 0 ? (
        <button type="button" className="drv-btn drv-btn--primary" onClick={() => setOpen(true)}>
          Подписать рейсы за смену ({waiting.length})
        </button>
      ) : null}
      {open ? <ShiftAcceptanceSheet trips={waiting} onClose={() => setOpen(false)} /> : null}
    </section>
  );
}

function ShiftAcceptanceSheet({ trips, onClose }: { trips: ShiftTrip[]; onClose: () => void }) {
  const receiver = useAcceptance();
  const [busy, setBusy] = useState(false);

  async function submit() {
    const at = new Date().toISOString();
    const { acceptance, png, errors } = await receiver.read();
    if (Object.keys(errors).length > 0) return;
    setBusy(true);
    try {
      const position = await readPosition();
      const result = await getEngine().queueShiftAcceptance({ trip_uids: trips.map((t) => t.uid), at, position, acceptance, signature: png });
      if (!result.ok) {
        showToast('error', result.message);
        return;
      }
      void requestBackgroundSync();
      showToast('success', acceptance.kind === 'signed' ? `Подпись за смену сохранена: рейсов ${trips.length}` : 'Отказ от подписи записан');
      onClose();
    } catch (error) {
      console.error('shift acceptance failed', error);
      showToast('error', 'Не удалось сохранить подпись');
    } finally {
      setBusy(false);
    }
  }

  const from = formatClock(Date.parse(trips[0]?.unloadedAt ?? ''));
  const to = formatClock(Date.parse(trips.at(-1)?.unloadedAt ?? ''));
  return (
    <DriverSheet
      titleId="drv-shift-sheet-title"
      title="Подпись за смену"
      subtitle={`Рейсов: ${trips.length}, с ${from} по ${to}. Без связи подпись уйдёт позже.`}
      submitLabel="Сохранить подпись"
      busy={busy}
      onSubmit={submit}
      onClose={onClose}
    >
      <AcceptanceFields state={receiver} />
    </DriverSheet>
  );
}
