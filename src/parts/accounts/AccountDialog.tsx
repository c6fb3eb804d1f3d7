/**
 * Create or edit an account in a dialog (drivers, managers, any user). Checks run before sending; the
 * server's refusal lands under the field it names; everything typed stays until the save succeeds.
 */
import { useState } from 'react';
import type { Company } from '../../../contract/entities.ts';
import { ROLE_LABELS } from '../../../contract/roles.ts';
import { ApiError } from '../../engine/queries.ts';
import { DateField, Field } from '../../ui/Field.tsx';
import { useGet } from '../../engine/api.ts';
import { FormDialog } from '../../ui/FormDialog.tsx';
import { Select } from '../../ui/Select.tsx';
import { NamedOptions } from '../../ui/Options.tsx';
import {
  accountBody,
  accountServerError,
  EMPTY_ACCOUNT,
  FIELD_ORDER,
  type AccountBody,
  type AccountErrors,
  type AccountShape,
  type AccountValues,
  type NewAccount,
} from './account-form.ts';

/** What the dialog hands over: a new account, or an edit's changed fields. */
export type AccountSave = { kind: 'create'; account: NewAccount } | { kind: 'edit'; changes: AccountBody };

export interface AccountDialogProps {
  title: string;
  submitLabel: string;
  shape: AccountShape;
  /** The account as loaded, when editing. */
  loaded: AccountValues | null;
  /** Values a new account starts with (a preset role or company). */
  initial?: Partial<AccountValues>;
  companies?: readonly Company[];
  /** Sends the body; throws the engine's ApiError when refused. */
  save: (sent: AccountSave) => Promise<void>;
  onClose: () => void;
}

function focusFirst(errors: AccountErrors): void {
  const first = FIELD_ORDER.find((field) => errors[field]);
  if (!first) return;
  // After the errors render: the field is focused and shown whole, its error line too (at 360 px the last field's
  // error sat below the scrolled fields, out of sight).
  requestAnimationFrame(() => {
    const input = document.querySelector<HTMLElement>(`.dialog [name="${first}"]`);
    input?.focus();
    input?.closest('.field')?.scrollIntoView({ block: 'nearest' });
  });
}

export function AccountDialog({ title, submitLabel, shape, loaded, initial, companies = [], save, onClose }: AccountDialogProps) {
  const [values, setValues] = useState<AccountValues>(loaded ?? { ...EMPTY_ACCOUNT, ...initial });
  const [errors, setErrors] = useState<AccountErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  function set<K extends keyof AccountValues>(key: K, value: AccountValues[K]): void {
    setValues((v) => ({ ...v, [key]: value }));
    // An error clears when its cause does.
    if (errors[key]) setErrors((e) => ({ ...e, [key]: undefined }));
  }

  function check(): { ok: true; sent: AccountSave } | { ok: false; errors: AccountErrors } {
    if (loaded === null) {
      const created = accountBody(values, shape, null);
      return created.ok ? { ok: true, sent: { kind: 'create', account: created.body } } : created;
    }
    const edited = accountBody(values, shape, loaded);
    return edited.ok ? { ok: true, sent: { kind: 'edit', changes: edited.body } } : edited;
  }

  async function submit(): Promise<void> {
    const checked = check();
    if (!checked.ok) {
      setErrors(checked.errors);
      setFormError(null);
      focusFirst(checked.errors);
      return;
    }
    if (checked.sent.kind === 'edit' && Object.keys(checked.sent.changes).length === 0) {
      onClose();
      return;
    }
    setBusy(true);
    try {
      await save(checked.sent);
      onClose();
    } catch (error) {
      if (error instanceof ApiError && !error.network) {
        const { field, message } = accountServerError(error.message);
        if (field) {
          setErrors({ [field]: message });
          setFormError(null);
          focusFirst({ [field]: message });
        } else setFormError(message);
      } else {
        setFormError('Нет связи с сервером: ничего не сохранено. Введённое осталось в форме — попробуйте ещё раз.');
      }
    } finally {
      setBusy(false);
    }
  }

  const field = (key: keyof AccountValues) => ({
    name: key,
    value: values[key],
    error: errors[key],
    onChange: (event: { target: { value: string } }) => set(key, event.target.value as never),
  });

  return (
    <FormDialog title={title} submitLabel={submitLabel} busy={busy} error={formError} onSubmit={() => void submit()} onCancel={onClose} wide>
      <Field label="Имя и фамилия" autoComplete="off" {...field('name')} />
      <Field label="E-mail (логин)" type="email" autoComplete="off" inputMode="email" {...field('email')} />
      <Field label="Телефон" type="tel" autoComplete="off" placeholder="+7 900 123-45-67" {...field('phone')} />
      <Field
        label={loaded ? 'Новый пароль' : 'Пароль'}
        type="password"
        autoComplete="new-password"
        hint={loaded ? 'Оставьте пустым, чтобы не менять. Новый пароль завершит все сеансы пользователя.' : 'Не короче 8 символов'}
        {...field('password')}
      />
      {shape.roles && shape.roles.length > 0 && (
        <Select label="Роль" {...field('role')}>
          <option value="">Выберите роль</option>
          {shape.roles.map((role) => (
            <option key={role} value={role}>
              {ROLE_LABELS[role]}
            </option>
          ))}
        </Select>
      )}
      {shape.company && values.role !== 'super-admin' && (
        <Select label="Компания" {...field('company_id')}>
          <option value="">Выберите компанию</option>
          <NamedOptions items={companies} />
        </Select>
      )}
      {shape.fleet && <FleetFields values={values} errors={errors} set={set} companyId={shape.company && values.company_id ? Number(values.company_id) : null} />}
      {shape.vehicle && (
        <>
          <Field label="Госномер" autoComplete="off" placeholder="А123ВС 77" {...field('vehicle_number')} />
          <Field label="Марка" autoComplete="off" placeholder="КамАЗ 65115" {...field('vehicle_brand')} />
          <Field label="Грузоподъёмность, т" inputMode="decimal" autoComplete="off" placeholder="22,5" hint="Можно с запятой: 22,5" {...field('vehicle_capacity')} />
        </>
      )}
    </FormDialog>
  );
}

/** A driver's current vehicle from the company's fleet (in service) and the licence (issue 31). */
function FleetFields({
  values,
  errors,
  set,
  companyId,
}: {
  values: AccountValues;
  errors: AccountErrors;
  set: <K extends keyof AccountValues>(key: K, value: AccountValues[K]) => void;
  companyId: number | null;
}) {
  const fleet = useGet('GET /vehicles/', { active: '1', limit: 200, ...(companyId ? { company_id: companyId } : {}) }).data?.data.items ?? [];
  const chosen = values.vehicle_id && !fleet.some((v) => String(v.id) === values.vehicle_id);
  const field = (key: 'license_series' | 'license_number' | 'inn') => ({ name: key, value: values[key], error: errors[key], onChange: (event: { target: { value: string } }) => set(key, event.target.value) });
  return (
    <>
      <Select
        label="Машина из парка"
        name="vehicle_id"
        value={values.vehicle_id}
        error={errors.vehicle_id}
        onChange={(event) => set('vehicle_id', event.target.value)}
      >
        <option value="">Без машины</option>
        {chosen && <option value={values.vehicle_id}>Текущая машина (снята с работы)</option>}
        {fleet.map((v) => (
          <option key={v.id} value={v.id}>
            {[v.plate, [v.make, v.model].filter(Boolean).join(' '), v.capacity_t !== null ? `${String(v.capacity_t).replace('.', ',')} т` : ''].filter(Boolean).join(' · ')}
          </option>
        ))}
      </Select>
      <Field label="Серия удостоверения" autoComplete="off" placeholder="77 12" hint="4 знака" {...field('license_series')} />
      <Field label="Номер удостоверения" autoComplete="off" inputMode="numeric" placeholder="345678" hint="6 цифр" {...field('license_number')} />
      <DateField label="Дата выдачи удостоверения" name="license_issued" value={values.license_issued} error={errors.license_issued} onValue={(iso) => set('license_issued', iso)} />
      <Field
        label="ИНН водителя"
        autoComplete="off"
        inputMode="numeric"
        placeholder="12 цифр"
        hint="Для транспортной накладной"
        {...field('inn')}
      />
    </>
  );
}
