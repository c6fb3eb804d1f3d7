/**
 * The two steps that carry facts (issue 32): «Загружен, выезжаю» — the weighbridge ticket's number, the loaded
 * quantity and the ticket's photo; «Выгружен» — the unloaded quantity, a photo, the receiver's acceptance when the
 * company asks for one per trip (name, position and a signature drawn with a finger, or «Получатель отказался
 * подписать» with the reason), and whether this was the last trip of the task.
 */
import { useRef, useState } from 'react';
import type { AcceptancePayload, TripStepBody } from '../../../contract/trips.ts';
import { Modal } from '../../ui/Modal.tsx';
import { Form } from '../../ui/Form.tsx';
import { PhotoInputs, PhotoThumb, newPhotoCaption, useNewPhotos } from '../report/PhotoPicker.tsx';
import { parseQuantity } from './quantity.ts';
import { formatClock } from '../../ui/format.ts';
import { SignatureField, type SignatureHandle } from './SignatureField.tsx';
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

type Errors = Partial<Record<'quantity' | 'ticket' | 'name' | 'signature' | 'reason' | 'form', string>>;

export function TripStepSheet({ step, unit, askAcceptance, autoAt, onSubmit, onClose }: Props) {
  const loading = step === 'loading_departed';
  const [ticket, setTicket] = useState('');
  const [quantity, setQuantity] = useState('');
  const [refused, setRefused] = useState(false);
  const [name, setName] = useState('');
  const [position, setPosition] = useState('');
  const [reason, setReason] = useState('');
  const [final, setFinal] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const photos = useNewPhotos();
  const signature = useRef<SignatureHandle>(null);
  const title = loading ? 'Загружен, выезжаю' : 'Выгружен';

  async function acceptanceOf(found: Errors): Promise<{ acceptance?: AcceptancePayload; png: Blob | null }> {
    if (!askAcceptance) return { png: null };
    if (refused) {
      if (reason.trim().length < 3) found.reason = 'Укажите причину отказа';
      return { acceptance: { kind: 'refused', receiver_name: name.trim() || null, reason: reason.trim() }, png: null };
    }
    if (name.trim().length < 2) found.name = 'Укажите имя получателя';
    const png = (await signature.current?.png()) ?? null;
    if (!png) found.signature = 'Получатель должен расписаться';
    const strokes = signature.current?.strokes() ?? [];
    return { acceptance: { kind: 'signed', receiver_name: name.trim(), receiver_position: position.trim() || null, strokes }, png };
  }

  async function submit() {
    const found: Errors = {};
    const parsed = parseQuantity(quantity);
    if (!parsed.ok) found.quantity = parsed.error;
    else if (parsed.value === 0) found.quantity = 'Количество должно быть больше нуля';
    if (ticket.trim().length > 40) found.ticket = 'Не длиннее 40 символов';
    const { acceptance, png } = await acceptanceOf(found);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
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
    <Modal className="drv-sheet" aria-labelledby="drv-trip-sheet-title" onClose={onClose}>
      <Form className="drv-sheet__form" onSubmit={submit}>
        <div className="drv-sheet__header">
          <h2 id="drv-trip-sheet-title" className="drv-sheet__title">
            {title}
          </h2>
          <p className="drv-sheet__subtitle">
            {autoAt
              ? `Телефон заметил выезд в ${formatClock(Date.parse(autoAt))}: это время и будет отмечено.`
              : 'Время и место отметятся при сохранении.'}{' '}
            Без связи отметка уйдёт позже.
          </p>
        </div>
        <div className="drv-sheet__content">
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
          {!loading && askAcceptance ? (
            <fieldset className="drv-fieldset drv-acceptance">
              <legend className="drv-field__label">Приёмка груза</legend>
              <label className="drv-field">
                <span className="drv-field__label">Имя получателя</span>
                <input className="drv-input" autoComplete="off" maxLength={120} value={name} aria-invalid={Boolean(errors.name)} onChange={(e) => setName(e.target.value)} />
                {errors.name ? <span className="drv-field__error">{errors.name}</span> : null}
              </label>
              {refused ? (
                <label className="drv-field">
                  <span className="drv-field__label">Причина отказа</span>
                  <textarea className="drv-input drv-textarea" maxLength={500} rows={3} value={reason} aria-invalid={Boolean(errors.reason)} onChange={(e) => setReason(e.target.value)} />
                  {errors.reason ? <span className="drv-field__error">{errors.reason}</span> : null}
                </label>
              ) : (
                <>
                  <label className="drv-field">
                    <span className="drv-field__label">Должность</span>
                    <input className="drv-input" autoComplete="off" maxLength={120} placeholder="необязательно" value={position} onChange={(e) => setPosition(e.target.value)} />
                  </label>
                  <div className="drv-field">
                    <span className="drv-field__label">Подпись получателя</span>
                    <SignatureField ref={signature} invalid={Boolean(errors.signature)} onChange={() => setErrors((e) => ({ ...e, signature: undefined }))} />
                    {errors.signature ? <span className="drv-field__error">{errors.signature}</span> : null}
                  </div>
                </>
              )}
              <label className="drv-final">
                <input type="checkbox" checked={refused} onChange={(e) => setRefused(e.target.checked)} />
                <span>
                  <strong>Получатель отказался подписать</strong>
                </span>
              </label>
            </fieldset>
          ) : null}
          {!loading ? (
            <label className="drv-final">
              <input type="checkbox" checked={final} onChange={(e) => setFinal(e.target.checked)} />
              <span>
                <strong>Последний рейс — завершить задачу</strong>
                <span className="drv-field__hint">Задача уйдёт из текущих в «Статистику». Без отметки она останется для следующих рейсов.</span>
              </span>
            </label>
          ) : null}
        </div>
        <div className="drv-sheet__actions">
          <button type="button" className="drv-btn drv-btn--ghost" onClick={onClose} disabled={busy}>
            Отмена
          </button>
          <button type="submit" className="drv-btn drv-btn--primary" disabled={busy}>
            {busy ? 'Сохраняем...' : 'Отметить'}
          </button>
        </div>
      </Form>
    </Modal>
  );
}
