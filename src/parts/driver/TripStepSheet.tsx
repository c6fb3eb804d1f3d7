/**
 * The two steps that carry facts (issue 32): «Загружен, выезжаю» — the weighbridge ticket's number, the loaded
 * quantity and the ticket's photo; «Выгружен» — the unloaded quantity, a photo, the receiver's acceptance when the
 * company asks for one per trip (name, position and a signature drawn with a finger, or «Получатель отказался
 * подписать» with the reason), and whether this was the last trip of the task. When the company asks for it
 * (`driver_confirms`), each of the two asks the driver to confirm by his simple electronic signature «Груз принят к
 * перевозке» / «Груз сдан» with the mass he typed and his remarks (driver-confirm.ts).
 */
import { useState } from 'react';
import type { AcceptancePayload, TripStepBody } from '../../../contract/trips.ts';
import { PhotoInputs, PhotoThumb, newPhotoCaption, useNewPhotos } from '../report/PhotoPicker.tsx';
import { parseQuantity } from './quantity.ts';
import { formatClock } from '../../ui/format.ts';
import { DriverSheet } from './DriverSheet.tsx';
import { AcceptanceFields, useAcceptance, type AcceptanceErrors } from './AcceptanceFields.tsx';
import { confirmLine, readConfirmation, REMARKS_MAX, type FactStep } from './driver-confirm.ts';
import './dialogs.css';
import './trip.css';

export type { FactStep };

/** What the sheet hands back: the step's own facts (the panel adds the time, the place and the task). */
export interface StepFacts {
  body: Pick<TripStepBody, 'ticket_number' | 'loading_quantity' | 'unloading_quantity' | 'acceptance' | 'final' | 'driver_confirmation'>;
  photos: Blob[];
  signature: Blob | null;
}

interface Props {
  step: FactStep;
  unit: string;
  /** The receiver signs this trip (the company's per-trip acceptance). */
  askAcceptance: boolean;
  /** The driver confirms the cargo accepted / handed over by his ПЭП (the company's `driver_confirms`). */
  askConfirm: boolean;
  /** The departure the phone saw by itself (ISO), stamped with this time instead of the save's. */
  autoAt: string | null;
  onSubmit: (facts: StepFacts) => Promise<boolean>;
  onClose: () => void;
}

type Errors = Partial<Record<'quantity' | 'ticket' | 'remarks', string>>;

/** The mass as typed so far, for the confirmation's line (null while empty or unreadable). */
const typedQuantity = (typed: string): number | null => {
  const parsed = parseQuantity(typed);
  return parsed.ok ? parsed.value : null;
};

export function TripStepSheet({ step, unit, askAcceptance, askConfirm, autoAt, onSubmit, onClose }: Props) {
  const loading = step === 'loading_departed';
  const [ticket, setTicket] = useState('');
  const [quantity, setQuantity] = useState('');
  const [final, setFinal] = useState(false);
  const [confirmed, setConfirmed] = useState(false);
  const [remarks, setRemarks] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const photos = useNewPhotos();
  const receiver = useAcceptance();
  const title = loading ? 'Загружен, выезжаю' : 'Выгружен';

  async function acceptanceOf(): Promise<{ acceptance?: AcceptancePayload; png: Blob | null; errors: AcceptanceErrors }> {
    if (!askAcceptance) return { png: null, errors: {} };
    return receiver.read();
  }

  async function submit() {
    const found: Errors = {};
    const parsed = parseQuantity(quantity);
    if (!parsed.ok) found.quantity = parsed.error;
    else if (parsed.value === 0) found.quantity = 'Количество должно быть больше нуля';
    if (ticket.trim().length > 40) found.ticket = 'Не длиннее 40 символов';
    const confirmation = readConfirmation(askConfirm, confirmed, remarks);
    if (!confirmation.ok) found.remarks = confirmation.error;
    const { acceptance, png, errors: receiverErrors } = await acceptanceOf();
    setErrors(found);
    if (Object.keys(found).length > 0 || Object.keys(receiverErrors).length > 0) return;
    const value = parsed.ok ? parsed.value : null;
    const confirmed_ = confirmation.ok ? confirmation.value : {};
    const body: StepFacts['body'] = loading
      ? { ticket_number: ticket.trim() || null, loading_quantity: value, ...confirmed_ }
      : { unloading_quantity: value, ...(acceptance ? { acceptance } : {}), ...(final ? { final: 1 as const } : {}), ...confirmed_ };
    setBusy(true);
    try {
      const done = await onSubmit({ body, photos: photos.photos.map((p) => p.original), signature: png });
      if (done) onClose();
    } finally {
      setBusy(false);
    }
  }

  return (
    <DriverSheet
      titleId="drv-trip-sheet-title"
      title={title}
      subtitle={
        <>
          {autoAt
            ? `Телефон заметил выезд в ${formatClock(Date.parse(autoAt))}: это время и будет отмечено.`
            : 'Время и место отметятся при сохранении.'}{' '}
          Без связи отметка уйдёт позже.
        </>
      }
      submitLabel="Отметить"
      busy={busy}
      onSubmit={submit}
      onClose={onClose}
    >
      {loading ? (
        <label className="drv-field">
          <span className="drv-field__label">Номер талона</span>
          <input className="drv-input" autoComplete="off" maxLength={40} placeholder="необязательно" value={ticket} aria-invalid={Boolean(errors.ticket)} onChange={(e) => setTicket(e.target.value)} />
          {errors.ticket ? <span className="drv-field__error">{errors.ticket}</span> : null}
        </label>
      ) : null}
      <label className="drv-field">
        <span className="drv-field__label">
          {loading ? 'Загружено по талону' : 'Выгружено по весам получателя'}, {unit}
        </span>
        <input className="drv-input" inputMode="decimal" autoComplete="off" placeholder="необязательно" value={quantity} aria-invalid={Boolean(errors.quantity)} onChange={(e) => setQuantity(e.target.value)} />
        {errors.quantity ? <span className="drv-field__error">{errors.quantity}</span> : null}
      </label>
      <fieldset className="drv-fieldset">
        <legend className="drv-field__label">{loading ? 'Фото талона' : 'Фото'}</legend>
        <PhotoInputs onFiles={photos.add} disabled={busy} />
        <ul className="drv-thumbs" aria-label={loading ? 'Фото талона' : 'Фото выгрузки'}>
          {photos.photos.map((photo) => (
            <PhotoThumb key={photo.key} blob={photo.preview} caption={newPhotoCaption(photo)} onRemove={() => photos.remove(photo.key)} busy={busy} />
          ))}
        </ul>
      </fieldset>
      {askConfirm ? (
        <fieldset className="drv-fieldset">
          <legend className="drv-field__label">Подтверждение водителя</legend>
          <label className="drv-final">
            <input type="checkbox" checked={confirmed} onChange={(e) => setConfirmed(e.target.checked)} />
            <span>
              <strong>{confirmLine(step, typedQuantity(quantity), unit)}</strong>
              <span className="drv-field__hint">
                Отметка — ваша простая электронная подпись: ею подписывается {loading ? 'титул Т2' : 'титул Т4'} транспортной накладной.
              </span>
            </span>
          </label>
          {confirmed ? (
            <label className="drv-field">
              <span className="drv-field__label">Замечания к грузу</span>
              <textarea
                className="drv-input drv-textarea"
                maxLength={REMARKS_MAX}
                rows={2}
                placeholder="необязательно"
                value={remarks}
                aria-invalid={Boolean(errors.remarks)}
                onChange={(e) => setRemarks(e.target.value)}
              />
              {errors.remarks ? <span className="drv-field__error">{errors.remarks}</span> : null}
            </label>
          ) : null}
        </fieldset>
      ) : null}
      {!loading && askAcceptance ? <AcceptanceFields state={receiver} /> : null}
      {!loading ? (
        <label className="drv-final">
          <input type="checkbox" checked={final} onChange={(e) => setFinal(e.target.checked)} />
          <span>
            <strong>Последний рейс — завершить задачу</strong>
            <span className="drv-field__hint">Задача уйдёт из текущих в «Статистику». Без отметки она останется для следующих рейсов.</span>
          </span>
        </label>
      ) : null}
    </DriverSheet>
  );
}
