/**
 * The trip sheets' dialogs: «Выписать путевой лист» (a vehicle of the fleet in service, a driver, the date) and the
 * record of a sheet's day (the checks with time and name, departure and return with the odometer). The server's
 * refusal is shown above the buttons and what was typed stays.
 */
import { useState } from 'react';
import type { TripSheet } from '../../../contract/trip-sheets.ts';
import { useGet, useSend } from '../../engine/api.ts';
import { failureMessage } from '../../engine/send.ts';
import { DateField, Field } from '../../ui/Field.tsx';
import { FormDialog } from '../../ui/FormDialog.tsx';
import { Select } from '../../ui/Select.tsx';
import { formatDate } from '../../ui/format.ts';
import { CHECKS, sheetBody, sheetValues, type CheckKey, type SheetErrors, type SheetValues } from './sheet-form.ts';

/** A super-admin's calls name the company; other staff's are their own. */
const companyQuery = (companyId: number | null) => (companyId === null ? {} : { company_id: companyId });

export function NewSheetDialog({ date, companyId, onSaved, onClose }: { date: string; companyId: number | null; onSaved: (sheet: TripSheet) => void; onClose: () => void }) {
  const vehicles = useGet('GET /vehicles/', { active: '1', limit: 200, ...companyQuery(companyId) });
  const drivers = useGet('GET /users/drivers/', companyId === null ? {} : { company_id: companyId });
  const create = useSend('POST /trip-sheets/');
  const [values, setValues] = useState({ vehicle_id: '', driver_id: '', date });
  const [errors, setErrors] = useState<Partial<Record<keyof typeof values, string>>>({});
  const [error, setError] = useState<string | null>(null);
  const set = (patch: Partial<typeof values>) => setValues((v) => ({ ...v, ...patch }));

  async function submit(): Promise<void> {
    const missing = {
      ...(values.vehicle_id ? {} : { vehicle_id: 'Выберите машину' }),
      ...(values.driver_id ? {} : { driver_id: 'Выберите водителя' }),
      ...(values.date ? {} : { date: 'Укажите дату' }),
    };
    setErrors(missing);
    if (Object.keys(missing).length > 0) return;
    setError(null);
    try {
      const sheet = await create.mutateAsync({
        body: { vehicle_id: Number(values.vehicle_id), driver_id: Number(values.driver_id), date: values.date },
        ...(companyId === null ? {} : { query: { company_id: companyId } }),
      });
      onSaved(sheet);
    } catch (refusal) {
      setError(failureMessage(refusal));
    }
  }

  const fleet = vehicles.data?.data.items ?? [];
  const people = (drivers.data?.data ?? []).filter((d) => d.is_active);
  return (
    <FormDialog title="Выписать путевой лист" submitLabel="Выписать" busy={create.isPending} error={error} onSubmit={() => void submit()} onCancel={onClose}>
      <Select label="Машина" name="vehicle_id" value={values.vehicle_id} error={errors.vehicle_id ?? (vehicles.isError ? failureMessage(vehicles.error) : undefined)} onChange={(e) => set({ vehicle_id: e.target.value })}>
        <option value="">{vehicles.isPending ? 'Загружаем парк…' : fleet.length === 0 ? 'Машин в работе нет' : 'Выберите машину'}</option>
        {fleet.map((v) => (
          <option key={v.id} value={v.id}>
            {[v.plate, v.make, v.model].filter(Boolean).join(' ')}
          </option>
        ))}
      </Select>
      <Select label="Водитель" name="driver_id" value={values.driver_id} error={errors.driver_id ?? (drivers.isError ? failureMessage(drivers.error) : undefined)} onChange={(e) => {
        const driver = people.find((d) => String(d.id) === e.target.value);
        // The driver's own vehicle is the likely one when none is chosen yet.
        set({ driver_id: e.target.value, ...(!values.vehicle_id && driver?.vehicle_id && fleet.some((v) => v.id === driver.vehicle_id) ? { vehicle_id: String(driver.vehicle_id) } : {}) });
      }}>
        <option value="">{drivers.isPending ? 'Загружаем водителей…' : people.length === 0 ? 'Водителей нет' : 'Выберите водителя'}</option>
        {people.map((d) => (
          <option key={d.id} value={d.id}>
            {d.name}
          </option>
        ))}
      </Select>
      <DateField label="Дата" name="date" value={values.date} error={errors.date} onValue={(date) => set({ date })} hint="Номер — следующий в году, его выдаст сервер" />
    </FormDialog>
  );
}

const CHECK_WORDS: Record<CheckKey, { title: string; who: string }> = {
  pre_medical: { title: 'Предрейсовый медосмотр', who: 'Медработник' },
  pre_technical: { title: 'Предрейсовый техосмотр', who: 'Механик' },
  post_medical: { title: 'Послерейсовый медосмотр', who: 'Медработник' },
};

function CheckFields({ check, values, errors, set }: { check: CheckKey; values: SheetValues; errors: SheetErrors; set: (patch: Partial<SheetValues>) => void }) {
  const words = CHECK_WORDS[check];
  return (
    <fieldset className="sheet-group">
      <legend>{words.title}</legend>
      <Field label="Время" name={`${check}_time`} inputMode="numeric" placeholder="ЧЧ:ММ" autoComplete="off" value={values[`${check}_time`]} error={errors[`${check}_time`]} onChange={(e) => set({ [`${check}_time`]: e.target.value })} />
      <Field label={words.who} name={`${check}_name`} placeholder="Фамилия И. О." value={values[`${check}_name`]} error={errors[`${check}_name`]} onChange={(e) => set({ [`${check}_name`]: e.target.value })} />
    </fieldset>
  );
}

function LegFields({ title, time, reading, values, errors, set }: { title: string; time: 'departure_time' | 'return_time'; reading: 'odometer_start' | 'odometer_end'; values: SheetValues; errors: SheetErrors; set: (patch: Partial<SheetValues>) => void }) {
  return (
    <fieldset className="sheet-group">
      <legend>{title}</legend>
      <Field label="Время" name={time} inputMode="numeric" placeholder="ЧЧ:ММ" autoComplete="off" value={values[time]} error={errors[time]} onChange={(e) => set({ [time]: e.target.value })} />
      <Field label="Одометр, км" name={reading} inputMode="numeric" placeholder="120000" autoComplete="off" value={values[reading]} error={errors[reading]} onChange={(e) => set({ [reading]: e.target.value })} />
    </fieldset>
  );
}

export function RecordSheetDialog({ sheet, onSaved, onClose }: { sheet: TripSheet; onSaved: (sheet: TripSheet) => void; onClose: () => void }) {
  const update = useSend('PUT /trip-sheets/:id');
  const [values, setValues] = useState(() => sheetValues(sheet));
  const [errors, setErrors] = useState<SheetErrors>({});
  const [error, setError] = useState<string | null>(null);
  const set = (patch: Partial<SheetValues>) => setValues((v) => ({ ...v, ...patch }));

  async function submit(): Promise<void> {
    const built = sheetBody(sheet, values);
    if (!built.ok) {
      setErrors(built.errors);
      return;
    }
    setErrors({});
    if (Object.keys(built.body).length === 0) {
      onClose();
      return;
    }
    setError(null);
    try {
      onSaved(await update.mutateAsync({ params: { id: sheet.id }, body: built.body }));
    } catch (refusal) {
      setError(failureMessage(refusal));
    }
  }

  const [preMedical, preTechnical, postMedical] = CHECKS;
  return (
    <FormDialog title={`Путевой лист № ${sheet.number} на ${formatDate(sheet.date)}`} submitLabel="Сохранить" busy={update.isPending} error={error} onSubmit={() => void submit()} onCancel={onClose} wide>
      <p className="sheet-dialog-who field-full">
        {sheet.vehicle.plate} · {sheet.driver.name}. Время — ЧЧ:ММ этого дня.
      </p>
      <div className="sheet-groups field-full">
        <CheckFields check={preMedical} values={values} errors={errors} set={set} />
        <CheckFields check={preTechnical} values={values} errors={errors} set={set} />
        <LegFields title="Выезд" time="departure_time" reading="odometer_start" values={values} errors={errors} set={set} />
        <LegFields title="Возвращение" time="return_time" reading="odometer_end" values={values} errors={errors} set={set} />
        <CheckFields check={postMedical} values={values} errors={errors} set={set} />
      </div>
    </FormDialog>
  );
}
