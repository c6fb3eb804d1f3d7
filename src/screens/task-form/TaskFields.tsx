/** The task's own fields and the assigned drivers' rows, shared by create and edit. */
import type { ReactNode } from 'react';
import type { Company } from '../../../contract/entities.ts';
import { DateField, Field } from '../../ui/Field.tsx';
import { Select } from '../../ui/Select.tsx';
import { DRIVER_STATUS_OPTIONS } from '../../ui/statuses.ts';
import { DriverPicker, vehicleOf, type DriverOption } from './DriverPicker.tsx';
import type { DriverNumberField, DriverRowValues, FieldErrors, TaskFormValues } from './task-form.ts';
import { SuggestField } from './SuggestField.tsx';
import type { DayLoad } from './form-helpers.ts';
import { NamedOptions, Options } from '../../ui/Options.tsx';
import { TaskLinks } from './TaskLinks.tsx';
import { PriceHint } from './PriceHint.tsx';
import { BULK_CARGO } from '../../../contract/cargo-facts.ts';

const DRIVER_FIELD_LABELS: Record<DriverNumberField, string> = {
  planned_quantity: 'Доля (пусто — поровну)',
  quantity: 'Количество',
  transport_rate: 'Ставка водителя, ₽ (пусто — по шкале)',
  loading_quantity: 'Погружено',
  unloading_quantity: 'Выгружено',
};

interface TaskFieldsProps {
  values: TaskFormValues;
  errors: FieldErrors;
  onChange: (patch: Partial<TaskFormValues>) => void;
  companies: Company[] | null;
  drivers: DriverOption[];
  /** Each driver's tasks and tonnage on the task's date (the picker shows them). */
  dayLoad?: ReadonlyMap<number, DayLoad>;
  editing: boolean;
  disabled: boolean;
  /** Edit mode: the per-driver actions that act at once (reassign, remove). */
  driverActions?: (row: DriverRowValues) => ReactNode;
}

/** The super-admin's chosen company (suggestions come from it); staff's own is implied. */
const companyOf = (values: TaskFormValues): number | null => (values.company_id ? Number(values.company_id) : null);

export function TaskFields({ values, errors, onChange, companies, drivers, dayLoad, editing, disabled, driverActions }: TaskFieldsProps) {
  const text = (key: keyof TaskFormValues) => ({
    name: key,
    value: (values[key] as string | undefined) ?? '',
    error: errors[key],
    disabled,
    onChange: (event: { target: { value: string } }) => onChange({ [key]: event.target.value }),
  });
  const byId = new Map(drivers.map((d) => [d.id, d]));

  function setDriver(driverId: number, patch: Partial<DriverRowValues>): void {
    onChange({ drivers: values.drivers.map((row) => (row.driver_id === driverId ? { ...row, ...patch } : row)) });
  }

  return (
    <div className="task-form-grid">
      <fieldset className="card task-form-section" disabled={disabled}>
        <legend>Задача</legend>
        {companies && (
          <Select label="Компания" {...text('company_id')} disabled={disabled || editing}>
            <option value="">Выберите компанию</option>
            <NamedOptions items={companies} />
          </Select>
        )}
        <DateField label="Дата" required name="date" value={values.date} error={errors.date} disabled={disabled} onValue={(date) => onChange({ date })} />
        <TaskLinks values={values} errors={errors} onChange={onChange} companyId={companyOf(values)} disabled={disabled} part="parties" />
        <SuggestField label="Груз" placeholder="Щебень 20–40" field="cargo" companyId={companyOf(values)} {...text('cargo')} />
        <div className="task-form-cargo">
          <Field label="Состояние груза" placeholder={BULK_CARGO.state} {...text('cargo_state')} />
          <Field label="Способ упаковки" placeholder={BULK_CARGO.packaging} {...text('cargo_packaging')} />
          <Field label="Вид тары" placeholder={BULK_CARGO.packageCode} {...text('cargo_package_code')} />
        </div>
        <p className="muted task-form-cargo-hint">
          Для накладной. Вид тары — код ОКВГУМ из двух знаков. Все три пусто — навалом: «{BULK_CARGO.state}», «{BULK_CARGO.packaging}», {BULK_CARGO.packageCode}.
        </p>
        <TaskLinks values={values} errors={errors} onChange={onChange} companyId={companyOf(values)} disabled={disabled} part="places" />
        <div className="task-form-pair">
          <Field label="Плановое количество" inputMode="decimal" placeholder="120" {...text('planned_quantity')} />
          <Select label="Единица" {...text('unit')}>
            {['т', 'м³', 'рейс', 'шт'].map((unit) => (
              <option key={unit} value={unit}>
                {unit}
              </option>
            ))}
          </Select>
        </div>
        <div className="task-form-pair">
          <Field
            label={`Цена для заказчика, ₽ за ${values.unit || 'т'}`}
            inputMode="decimal"
            placeholder="650"
            hint="Выручка компании; пусто — из прайса заказчика. Водителю — его ставка или шкала компании. Можно с запятой: 650,5"
            {...text('rate')}
          />
          <Field label="Мест для водителей" inputMode="numeric" placeholder="не ограничено" {...text('max_drivers')} />
        </div>
        <PriceHint values={values} onChange={onChange} disabled={disabled} />
        <div className="field">
          <label htmlFor="task-comment">Комментарий</label>
          <textarea
            id="task-comment"
            name="comment"
            rows={3}
            value={values.comment}
            disabled={disabled}
            onChange={(event) => onChange({ comment: event.target.value })}
          />
        </div>
      </fieldset>
      <fieldset className="card task-form-section" disabled={disabled}>
        <legend>Водители ({values.drivers.length})</legend>
        {errors.drivers && <p className="field-error">{errors.drivers}</p>}
        {values.drivers.length === 0 && <p className="muted">Водители не назначены: задачу смогут взять водители компании сами.</p>}
        <ul className="driver-rows">
          {values.drivers.map((row) => {
            const driver = byId.get(row.driver_id);
            return (
              <li key={row.driver_id} className="driver-row" data-driver={row.driver_id}>
                <div className="driver-row-head">
                  <div>
                    <strong>{driver?.name ?? `Водитель №${row.driver_id}`}</strong>
                    <div className="muted">{vehicleOf(driver)}</div>
                  </div>
                  <div className="driver-row-actions">
                    {driverActions?.(row)}
                    {!editing && (
                      <button
                        type="button"
                        className="button button-quiet button-small"
                        onClick={() => onChange({ drivers: values.drivers.filter((r) => r.driver_id !== row.driver_id) })}
                      >
                        Убрать
                      </button>
                    )}
                  </div>
                </div>
                <div className="driver-row-fields">
                  {(Object.keys(DRIVER_FIELD_LABELS) as DriverNumberField[]).map((key) => (
                    <Field
                      key={key}
                      label={DRIVER_FIELD_LABELS[key]}
                      name={`drivers.${row.driver_id}.${key}`}
                      inputMode="decimal"
                      value={row[key]}
                      error={errors[`drivers.${row.driver_id}.${key}`]}
                      onChange={(event) => setDriver(row.driver_id, { [key]: event.target.value })}
                    />
                  ))}
                  {editing && (
                    <Select label="Статус" name={`drivers.${row.driver_id}.status`} value={row.status} onChange={(event) => setDriver(row.driver_id, { status: event.target.value as DriverRowValues['status'] })}>
                      <Options options={DRIVER_STATUS_OPTIONS} />
                    </Select>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
        <DriverPicker
          drivers={drivers}
          chosen={new Set(values.drivers.map((d) => d.driver_id))}
          dayLoad={dayLoad}
          disabled={disabled}
          onAdd={(driverId) =>
            onChange({
              drivers: [
                ...values.drivers,
                { driver_id: driverId, planned_quantity: '', quantity: '', transport_rate: '', loading_quantity: '', unloading_quantity: '', status: 'accepted' },
              ],
            })
          }
        />
      </fieldset>
    </div>
  );
}
