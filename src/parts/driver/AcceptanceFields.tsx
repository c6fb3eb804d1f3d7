/**
 * The receiver's acceptance (issue 32), on a trip's last step or once for the shift's trips: the receiver's name
 * and position with a signature drawn with a finger, or «Получатель отказался подписать» with the reason.
 * `useAcceptance` keeps the fields; its `read` checks them in Russian and answers the payload and the PNG.
 */
import { useRef, useState } from 'react';
import type { AcceptancePayload } from '../../../contract/trips.ts';
import { SignatureField, type SignatureHandle } from './SignatureField.tsx';

export type AcceptanceErrors = Partial<Record<'name' | 'signature' | 'reason', string>>;

export function useAcceptance() {
  const [refused, setRefused] = useState(false);
  const [name, setName] = useState('');
  const [position, setPosition] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<AcceptanceErrors>({});
  const signature = useRef<SignatureHandle>(null);

  /** The acceptance as filled, with the problems found (an empty `errors` when none). */
  async function read(): Promise<{ acceptance: AcceptancePayload; png: Blob | null; errors: AcceptanceErrors }> {
    const found: AcceptanceErrors = {};
    if (refused) {
      if (reason.trim().length < 3) found.reason = 'Укажите причину отказа';
      setErrors(found);
      return { acceptance: { kind: 'refused', receiver_name: name.trim() || null, reason: reason.trim() }, png: null, errors: found };
    }
    if (name.trim().length < 2) found.name = 'Укажите имя получателя';
    const png = (await signature.current?.png()) ?? null;
    if (!png) found.signature = 'Получатель должен расписаться';
    const strokes = signature.current?.strokes() ?? [];
    setErrors(found);
    return { acceptance: { kind: 'signed', receiver_name: name.trim(), receiver_position: position.trim() || null, strokes }, png, errors: found };
  }

  return { refused, setRefused, name, setName, position, setPosition, reason, setReason, errors, setErrors, signature, read };
}

export type AcceptanceState = ReturnType<typeof useAcceptance>;

export function AcceptanceFields({ state, legend = 'Приёмка груза' }: { state: AcceptanceState; legend?: string }) {
  const { refused, setRefused, name, setName, position, setPosition, reason, setReason, errors, setErrors, signature } = state;
  return (
    <fieldset className="drv-fieldset drv-acceptance">
      <legend className="drv-field__label">{legend}</legend>
      <label className="drv-field">
        <span className="drv-field__label">Имя получателя</span>
        <input className="drv-input" autoComplete="off" maxLength={120} value={name} aria-invalid={Boolean(errors.name)} onChange={(e) => {
            setName(e.target.value);
            setErrors((x) => ({ ...x, name: undefined }));
          }} />
        {errors.name ? <span className="drv-field__error">{errors.name}</span> : null}
      </label>
      {refused ? (
        <label className="drv-field">
          <span className="drv-field__label">Причина отказа</span>
          <textarea className="drv-input drv-textarea" maxLength={500} rows={3} value={reason} aria-invalid={Boolean(errors.reason)} onChange={(e) => {
            setReason(e.target.value);
            setErrors((x) => ({ ...x, reason: undefined }));
          }} />
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
  );
}
