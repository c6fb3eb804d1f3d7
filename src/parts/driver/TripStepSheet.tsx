/**
 * The two steps that carry facts (issue 32): «Загружен, выезжаю» — the weighbridge ticket's number, the loaded
 * quantity and the ticket's photo; «Выгружен» — the unloaded quantity, a photo, the receiver's acceptance when the
 * company asks for one per trip (name, position and a signature drawn with a finger, or «Получатель отказался
 * подписать» with the reason), and whether this was the last trip of the task.
 */
import { useState } from 'react';
import type { AcceptancePayload, TripStepBody } from '../../../contract/trips.ts';
import { PhotoInputs, PhotoThumb, newPhotoCaption, useNewPhotos } from '../report/PhotoPicker.tsx';
import { parseQuantity } from './quantity.ts';
import { formatClock } from '../../ui/format.ts';
import { DriverSheet } from './DriverSheet.tsx';
import { AcceptanceFields, useAcceptance, type AcceptanceErrors } from './AcceptanceFields.tsx';
import './dialogs.css';
import './trip.css';

export type FactStep = 'loading_departed' | 'unloading_departed';

/** What the sheet hands back: the step's own facts (the panel adds the time, the place and the task). */
export interface StepFacts {
  body: Pick<TripStepBody, 'ticket_number' | 'loading_quantity' | 'unloading_quantity' | 'acceptance' | 'final'>;
  photos: Blob[];
  signature: Blob | null;
}

interface Props {
  step: FactStep;
  unit: string;
  /** The receiver signs this trip (the company's per-trip acceptance). */
  askAcceptance: boolean;
  /** The departure the phone saw by itself (ISO), stamped with this time instead of the save's. */
  autoAt: string | null;
  onSubmit: (facts: StepFacts) => Promise<boolean>;
  onClose: () => void;
}

type Errors = Partial<Record<'quantity' | 'ticket', string>>;

export function TripStepSheet({ step, unit, askAcceptance, autoAt, onSubmit, onClose }: Props) {
  const loading = step === 'loading_departed';
  const [ticket, setTicket] = useState('');
  const [quantity, setQuantity] = useState('');
  const [final, setFinal] = useState(false);
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
    const { acceptance, png, errors: receiverErrors } = await acceptanceOf();
    setErrors(found);
    if (Object.keys(found).length > 0 || Object.keys(receiverErrors).length > 0) return;
    const value = parsed.ok ? parsed.value : null;
    const body: StepFacts['body'] = loading
      ? { ticket_number: ticket.trim() || null, loading_quantity: value }
      : { unloading_quantity: value, ...(acceptance ? { acceptance } : {}), ...(final ? { final: 1 as const } : {}) };
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
