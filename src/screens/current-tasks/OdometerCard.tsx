/**
 * The driver's trip sheet of the day on his home screen (issue 33 §2; docs/trip-sheets.md «The driver's odometer»):
 * the odometer at the start and at the end of his shift — a number and a photo of the dashboard — queued through the
 * engine's outbox (offline too, kept across reloads), each exactly once. A reading shows as soon as it is queued,
 * from the queue, and after that from the sheet the server answers.
 */
import { useState } from 'react';
import type { TripSheet } from '../../../contract/trip-sheets.ts';
import { useGet } from '../../engine/api.ts';
import { getEngine } from '../../engine/engine.ts';
import { useEngineSelector } from '../../engine/store.ts';
import { requestBackgroundSync } from '../../app/pwa/register.ts';
import { Form } from '../../ui/Form.tsx';
import { formatClock } from '../../ui/format.ts';
import { showToast } from '../../ui/toasts.ts';
import { odometerValue } from '../../parts/driver/odometer.ts';

type Which = 'start' | 'end';
const WORDS: Record<Which, { title: string; button: string }> = {
  start: { title: 'Выезд', button: 'Записать выезд' },
  end: { title: 'Возвращение', button: 'Записать возвращение' },
};

export function OdometerCard() {
  const query = useGet('GET /trip-sheets/mine');
  const sheet = query.data?.data ?? null;
  if (!sheet) return null;
  return <SheetReadings sheet={sheet} />;
}

function SheetReadings({ sheet }: { sheet: TripSheet }) {
  // Only this sheet's readings: a trip step tapped elsewhere on the screen does not re-render the card.
  const items = useEngineSelector((s) => s.outbox.items.filter((i) => i.odometer?.sheet_id === sheet.id));
  const queued = (which: Which) => items.find((i) => i.odometer?.sheet_id === sheet.id && i.odometer.which === which);
  const reading = (which: Which) => {
    const stored = which === 'start' ? sheet.odometer_start : sheet.odometer_end;
    const item = queued(which);
    if (stored !== null) return { value: stored, at: which === 'start' ? sheet.departure_at : sheet.return_at, pending: false };
    return item?.odometer ? { value: item.odometer.value, at: item.odometer.at, pending: item.state !== 'sent' } : null;
  };
  const start = reading('start');
  const end = reading('end');
  const next: Which | null = !start ? 'start' : !end ? 'end' : null;
  return (
    <section className="drv-card drv-odometer" aria-labelledby="drv-odometer-title">
      <h2 id="drv-odometer-title" className="drv-card__title">
        Путевой лист № {sheet.number} · {sheet.vehicle.plate}
      </h2>
      {([['start', start], ['end', end]] as const).map(([which, r]) =>
        r ? (
          <p key={which} className="drv-odometer__done">
            {WORDS[which].title}: <strong>{r.value.toLocaleString('ru-RU')} км</strong>
            {r.at ? ` в ${formatClock(Date.parse(r.at))}` : ''}
            {r.pending ? <span className="drv-field__hint"> — в очереди, уйдёт само</span> : null}
          </p>
        ) : null,
      )}
      {next ? <ReadingForm key={next} sheetId={sheet.id} which={next} start={start?.value ?? null} /> : null}
    </section>
  );
}

function ReadingForm({ sheetId, which, start }: { sheetId: number; which: Which; start: number | null }) {
  const [typed, setTyped] = useState('');
  const [photo, setPhoto] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(): Promise<void> {
    const checked = odometerValue(typed, which === 'end' ? start : null);
    if (!checked.ok) {
      setError(checked.message);
      return;
    }
    if (!photo) {
      setError('Сфотографируйте приборную панель с одометром');
      return;
    }
    setError(null);
    setBusy(true);
    try {
      const result = await getEngine().queueOdometer({ sheet_id: sheetId, which, value: checked.value, at: new Date().toISOString(), photo });
      if (!result.ok) setError(result.message);
      else {
        void requestBackgroundSync();
        showToast('success', `${WORDS[which].title}: показание записано`);
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <Form className="drv-odometer__form" onSubmit={submit}>
      <label className="drv-field">
        <span className="drv-field__label">Одометр, км ({WORDS[which].title.toLowerCase()})</span>
        <input className="drv-input" inputMode="numeric" autoComplete="off" value={typed} aria-invalid={Boolean(error)} onChange={(event) => setTyped(event.target.value)} />
      </label>
      <label className="drv-field">
        <span className="drv-field__label">Фото приборной панели</span>
        <input className="drv-input" type="file" accept="image/*" capture="environment" onChange={(event) => setPhoto(event.target.files?.[0] ?? null)} />
      </label>
      <button type="submit" className="drv-btn drv-btn--primary" disabled={busy}>
        {busy ? 'Сохраняем...' : WORDS[which].button}
      </button>
      {error ? (
        <p className="drv-field__error" role="alert">
          {error}
        </p>
      ) : null}
    </Form>
  );
}
