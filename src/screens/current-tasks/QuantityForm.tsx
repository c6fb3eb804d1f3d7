/** The driver's own quantity, loading and unloading quantity on one association (PUT .../quantity/). */
import { useEffect, useId, useState } from 'react';
import { showToast } from '../../ui/toasts.ts';
import { NEEDS_SERVER } from '../../engine/use-online.ts';
import type { DriverAssociation } from '../../../contract/entities.ts';
import { failureMessage } from '../../engine/send.ts';
import { useSend } from '../../engine/api.ts';
import { ApiError } from '../../engine/queries.ts';
import { quantitiesUnsaved, quantityBody, quantityText, type QuantityFields } from '../../parts/driver/quantity.ts';
import { Form } from '../../ui/Form.tsx';

/**
 * Typed but not on the server: said beside the fields until it is saved, so a failed save (the server
 * unreachable) never looks saved once its toast is gone. The values stay for the next try.
 */
const UNSAVED = 'Не сохранено';
const UNSAVED_AFTER_FAILURE = 'Не сохранено: нет связи с сервером. Нажмите «Сохранить количество», когда связь вернётся.';

const LABELS: Record<keyof QuantityFields, string> = {
  quantity: 'Моё',
  loading_quantity: 'Погрузка',
  unloading_quantity: 'Выгрузка',
};

/** Each field in one line: what goes in it. */
const HINTS: Record<keyof QuantityFields, string> = {
  quantity: 'сколько перевезли вы сами',
  loading_quantity: 'всего на погрузке, по весам',
  unloading_quantity: 'всего на выгрузке, по весам',
};

interface Props {
  association: DriverAssociation;
  unit: string;
  disabled: boolean;
  /** Told whether typed values are not on the server yet (the card says so while the fields are folded). */
  onUnsavedChange?: (unsaved: boolean) => void;
}

export function QuantityForm({ association, unit, disabled, onUnsavedChange }: Props) {
  const idPrefix = useId();
  const [fields, setFields] = useState<QuantityFields>(() => ({
    quantity: quantityText(association.quantity),
    loading_quantity: quantityText(association.loading_quantity),
    unloading_quantity: quantityText(association.unloading_quantity),
  }));
  const [errors, setErrors] = useState<Partial<Record<keyof QuantityFields, string>>>({});
  const [failedOffline, setFailedOffline] = useState(false);
  const unsaved = quantitiesUnsaved(fields, association);
  useEffect(() => onUnsavedChange?.(unsaved), [unsaved, onUnsavedChange]);
  const save = useSend('PUT /tasks/:id/drivers/:driverId/quantity/');

  async function submit() {
    const result = quantityBody(fields);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    try {
      await save.mutateAsync({ params: { id: association.task_id, driverId: association.driver_id }, body: result.body });
      showToast('success', 'Количество сохранено');
    } catch (error) {
      // The typed values stay in the fields, so the driver can save again later.
      showToast('error', failureMessage(error, 'Нет подключения к сети: количество не сохранено.'));
      setFailedOffline(error instanceof ApiError && error.network);
    }
  }

  return (
    <Form className="drv-quantities" onSubmit={submit}>
      <fieldset className="drv-quantities__fields" disabled={disabled}>
        <legend className="drv-field__label">Количество, {unit}</legend>
        {(Object.keys(LABELS) as (keyof QuantityFields)[]).map((key) => {
          const id = `${idPrefix}-${key}`;
          const describedBy = errors[key] ? `${id}-hint ${id}-error` : `${id}-hint`;
          return (
            <div key={key} className="drv-quantity">
              <label className="drv-quantity__label" htmlFor={id}>
                {LABELS[key]}
              </label>
              <input
                id={id}
                className="drv-input drv-quantity__input"
                inputMode="decimal"
                autoComplete="off"
                value={fields[key]}
                aria-invalid={Boolean(errors[key])}
                aria-describedby={describedBy}
                onChange={(event) => setFields((current) => ({ ...current, [key]: event.target.value }))}
              />
              <span className="drv-quantity__hint" id={`${id}-hint`}>
                {HINTS[key]}
              </span>
              {errors[key] ? (
                <span className="drv-field__error drv-quantity__error" id={`${id}-error`}>
                  {errors[key]}
                </span>
              ) : null}
            </div>
          );
        })}
      </fieldset>
      {unsaved ? (
        <p className="drv-quantities__unsaved" role="status">
          {failedOffline ? UNSAVED_AFTER_FAILURE : UNSAVED}
        </p>
      ) : null}
      <button
        type="submit"
        className="drv-btn drv-btn--ghost drv-quantities__save"
        disabled={disabled || save.isPending}
        title={disabled ? NEEDS_SERVER : undefined}
      >
        {save.isPending ? 'Сохраняем...' : 'Сохранить количество'}
      </button>
    </Form>
  );
}
