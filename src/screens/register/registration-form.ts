/** The registration form's values and their check against the shared contract schema. */
import { z } from 'zod';
import type { RegistrationReviewer } from '../../../contract/entities.ts';
import { MAX_VEHICLE_CAPACITY, registrationSchema, type RegistrationPayload } from '../../../contract/payloads.ts';

export interface RegistrationForm {
  email: string;
  password: string;
  name: string;
  phone: string;
  company_id: string;
  role: 'driver' | 'manager';
  vehicle_number: string;
  vehicle_brand: string;
  vehicle_capacity: string;
}

export const emptyRegistrationForm: RegistrationForm = {
  email: '',
  password: '',
  name: '',
  phone: '',
  company_id: '',
  role: 'driver',
  vehicle_number: '',
  vehicle_brand: '',
  vehicle_capacity: '',
};

export type FieldErrors = Partial<Record<keyof RegistrationForm, string>>;

// Where the shared schema has no Russian message of its own, the form says it.
const MESSAGES: FieldErrors = {
  company_id: 'Выберите компанию',
  role: 'Выберите роль',
  vehicle_number: 'Госномер — не длиннее 20 символов',
  vehicle_brand: 'Марка — не длиннее 100 символов',
  vehicle_capacity: `Грузоподъёмность — число больше 0 и не больше ${MAX_VEHICLE_CAPACITY} т (например, 22,5)`,
};

export type Checked = { ok: true; payload: RegistrationPayload } | { ok: false; errors: FieldErrors };

/** The same rules and messages as the server's; vehicle fields only for a driver, empty ones left out. */
export function checkRegistration(form: RegistrationForm): Checked {
  const optional = (value: string): string | undefined => (value.trim() === '' ? undefined : value);
  // The server takes numbers as numbers: text that reads as one is converted, anything else is left for the
  // schema to refuse with its message.
  const number = (value: string | undefined): number | string | undefined => {
    if (value === undefined) return undefined;
    const n = Number(value.trim().replace(',', '.'));
    return value.trim() !== '' && Number.isFinite(n) ? n : value;
  };
  const driver = form.role === 'driver';
  const result = registrationSchema.safeParse({
    email: form.email,
    password: form.password,
    name: form.name,
    phone: form.phone,
    company_id: number(optional(form.company_id)),
    role: form.role,
    vehicle_number: driver ? optional(form.vehicle_number) : undefined,
    vehicle_brand: driver ? optional(form.vehicle_brand) : undefined,
    vehicle_capacity: driver ? number(optional(form.vehicle_capacity)) : undefined,
  });
  if (result.success) return { ok: true, payload: result.data };
  const errors: FieldErrors = {};
  for (const [field, messages] of Object.entries(z.flattenError(result.error).fieldErrors)) {
    const message = (messages as string[] | undefined)?.[0];
    const key = field as keyof RegistrationForm;
    if (message) errors[key] = MESSAGES[key] ?? message;
  }
  return { ok: false, errors };
}

/** Who will confirm the request, in the applicant's words. */
export function sentMessage(reviewer: RegistrationReviewer, role: 'driver' | 'manager'): string {
  if (reviewer === 'super-admin') {
    return 'Заявка отправлена. В выбранной компании пока нет сотрудников, которые могут её подтвердить, поэтому её рассмотрит администратор системы. Вы сможете войти после подтверждения.';
  }
  return role === 'driver'
    ? 'Заявка отправлена. Вы сможете войти после подтверждения менеджером или администратором компании.'
    : 'Заявка отправлена. Вы сможете войти после подтверждения администратором компании.';
}
