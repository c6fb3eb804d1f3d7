/** The driver's own quantity, loading and unloading quantity on one association (PUT .../quantity/). */
import { useState } from 'react';
import { toast } from 'react-toastify';
import { NEEDS_SERVER } from '../../engine/use-online.ts';
import type { DriverAssociation } from '../../../contract/entities.ts';
import { failureMessage, useEngineSend } from '../../engine/send.ts';
import { ApiError } from '../../engine/queries.ts';
import { quantitiesUnsaved, quantityBody, quantityText, type QuantityBody, type QuantityFields } from './quantity.ts';

/**
 * Issue 10 A: typed but not on the server — said beside the fields until it is saved, so a failed save (the
 * server unreachable) never looks saved once its toast is gone. The values stay for the next try.
 */
const UNSAVED = 'Не сохранено';
const UNSAVED_AFTER_FAILURE = 'Не сохранено: нет связи с сервером. Нажмите «Сохранить количество», когда связь вернётся.';

const LABELS: Record<keyof QuantityFields, string> = {
  quantity: 'Моё',
  loading_quantity: 'Погрузка',
  unloading_quantity: 'Выгрузка',
};

export function QuantityForm({ association, unit, disabled }: { association: DriverAssociation; unit: string; disabled: boolean }) {
  const [fields, setFields] = useState<QuantityFields>(() => ({
    quantity: quantityText(association.quantity),
    loading_quantity: quantityText(association.loading_quantity),
    unloading_quantity: quantityText(association.unloading_quantity),
  }));
  const [errors, setErrors] = useState<Partial<Record<keyof QuantityFields, string>>>({});
  const [failedOffline, setFailedOffline] = useState(false);
  const unsaved = quantitiesUnsaved(fields, association);
  const save = useEngineSend<QuantityBody>(
    (body) => ({ method: 'PUT', path: `/tasks/${association.task_id}/drivers/${association.driver_id}/quantity/`, body }),
    ['/tasks/assigned/'],
  );

  async function submit() {
    const result = quantityBody(fields);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    try {
      await save.mutateAsync(result.body);
      toast.success('Количество сохранено');
    } catch (error) {
      // The typed values stay in the fields, so the driver can save again later.
      toast.error(failureMessage(error, 'Нет подключения к сети: количество не сохранено.'));
      setFailedOffline(error instanceof ApiError && error.network);
    }
  }

  return (
    <form
      className="drv-quantities"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <fieldset className="drv-quantities__fields" disabled={disabled}>
        <legend className="drv-field__label">Количество, {unit}</legend>
      {(Object.keys(LABELS) as (keyof QuantityFields)[]).map((key) => (
        <label key={key} className="drv-field">
          <span className="drv-field__label">{LABELS[key]}</span>
          <input
            className="drv-input"
            inputMode="decimal"
            autoComplete="off"
            value={fields[key]}
            aria-invalid={Boolean(errors[key])}
            onChange={(event) => setFields((current) => ({ ...current, [key]: event.target.value }))}
          />
          {errors[key] ? <span className="drv-field__error">{errors[key]}</span> : null}
        </label>
      ))}
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
    </form>
  );
}
