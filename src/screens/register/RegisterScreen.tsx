/**
 * Registration: it files a request that a manager approves; nobody can sign in before that.
 * The company list comes from GET /companies/, which answers anyone.
 */
import { useState } from 'react';
import { Link } from 'wouter';
import type { RegistrationReviewer } from '../../../contract/entities.ts';
import { getEngine } from '../../engine/engine.ts';
import { useGet } from '../../engine/api.ts';
import { Field } from '../../ui/Field.tsx';
import { AuthFrame } from '../../ui/AuthFrame.tsx';
import { Select } from '../../ui/Select.tsx';
import { checkRegistration, emptyRegistrationForm, sentMessage, type FieldErrors, type RegistrationForm } from './registration-form.ts';
import { Form } from '../../ui/Form.tsx';

export function RegisterScreen() {
  const companies = useGet('GET /companies/');
  const [form, setForm] = useState<RegistrationForm>(emptyRegistrationForm);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<RegistrationReviewer | null>(null);

  // Editing a field clears its error: the message was about the old value.
  const set = (field: keyof RegistrationForm) => (event: { target: { value: string } }) => {
    setForm((current) => ({ ...current, [field]: event.target.value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  async function submit(): Promise<void> {
    setFailure(null);
    const checked = checkRegistration(form);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const result = await getEngine().register(checked.payload);
      if (result.ok) setSent(result.data);
      else setFailure(result.message);
    } catch (error: unknown) {
      console.error('registration failed', error);
      setFailure('Registration failed');
    } finally {
      setBusy(false);
    }
  }

  if (sent) {
    return (
      <AuthFrame title="Регистрация">
        <div className="notice notice-success" role="status">
          <p>{sentMessage(sent, form.role)}</p>
          <Link href="/login" className="button button-primary">
            Перейти ко входу
          </Link>
        </div>
      </AuthFrame>
    );
  }

  const companyList = companies.data?.data ?? [];
  const companyPlaceholder = companies.isPending
    ? 'Загрузка компаний...'
    : companies.isError
      ? 'Не удалось загрузить компании'
      : 'Выберите компанию';

  return (
    <AuthFrame title="Регистрация">
      <Form className="form" onSubmit={submit}>
        <Field label="E-mail" type="email" autoComplete="email" inputMode="email" value={form.email} onChange={set('email')} error={errors.email} />
        <Field
          label="Пароль"
          type="password"
          autoComplete="new-password"
          value={form.password}
          onChange={set('password')}
          error={errors.password}
          hint="Не короче 8 символов"
        />
        <Field label="Имя" autoComplete="name" value={form.name} onChange={set('name')} error={errors.name} />
        <Field label="Телефон" type="tel" autoComplete="tel" inputMode="tel" value={form.phone} onChange={set('phone')} error={errors.phone} />
        <Select label="Компания" value={form.company_id} onChange={set('company_id')} error={errors.company_id} disabled={companies.isPending}>
          <option value="">{companyPlaceholder}</option>
          {companyList.map((company) => (
            <option key={company.id} value={String(company.id)}>
              {company.name}
            </option>
          ))}
        </Select>
        {companies.isError && (
          <button type="button" className="button button-quiet" onClick={() => void companies.refetch()}>
            Загрузить компании ещё раз
          </button>
        )}
        <fieldset className="choice">
          <legend>Роль</legend>
          {(['driver', 'manager'] as const).map((role) => (
            <label key={role} className="choice-option">
              <input type="radio" name="role" value={role} checked={form.role === role} onChange={set('role')} />
              {role === 'driver' ? 'Водитель' : 'Менеджер'}
            </label>
          ))}
        </fieldset>
        {form.role === 'driver' && (
          <fieldset className="group">
            <legend>Транспорт</legend>
            <Field label="Госномер" autoCapitalize="characters" value={form.vehicle_number} onChange={set('vehicle_number')} error={errors.vehicle_number} />
            <Field label="Марка" value={form.vehicle_brand} onChange={set('vehicle_brand')} error={errors.vehicle_brand} />
            <Field
              label="Грузоподъёмность, т"
              // Text, not type=number: a number field turned «22,5» into 225 in some browsers.
              inputMode="decimal"
              placeholder="22,5"
              value={form.vehicle_capacity}
              onChange={set('vehicle_capacity')}
              error={errors.vehicle_capacity}
            />
          </fieldset>
        )}
        {failure && (
          <p className="form-error" role="alert">
            {failure}
          </p>
        )}
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Отправка...' : 'Отправить заявку'}
        </button>
        <p className="form-footer">
          Уже есть аккаунт? <Link href="/login">Войти</Link>
        </p>
      </Form>
    </AuthFrame>
  );
}

