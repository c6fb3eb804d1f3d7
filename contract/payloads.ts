/**
 * Request payloads with their runtime schemas (zod). The server validates with them;
 * the worker and UI use the inferred types.
 */
import { z } from 'zod';
import { isoDate, PHONE_PATTERN, stripUnsafeChars, text } from './fields.ts';
import { ROLES } from './roles.ts';
import { innField } from './requisites.ts';

const email = z.string().trim().toLowerCase().pipe(z.email({ message: 'Некорректный e-mail' }));
const password = z.string().min(8, 'Пароль должен быть не короче 8 символов').max(200);
const name = text().min(1, 'Укажите имя').max(200);
const phone = z.string().trim().regex(PHONE_PATTERN, 'Некорректный телефон');

export const loginSchema = z.object({
  username: z.string().trim().min(1, 'Укажите e-mail').max(320),
  password: z.string().min(1, 'Укажите пароль').max(200),
  device_id: text().min(1).max(100).optional(),
  // The browser's own description: kept, without the characters text refuses (contract/fields.ts).
  device_info: z.string().max(500).transform(stripUnsafeChars).nullish(),
  push_subscription: z.unknown().nullish(),
});
export type LoginPayload = z.infer<typeof loginSchema>;

export const refreshSchema = z.object({ refresh_token: z.string().min(1, 'Нет refresh_token') });

/** Tonnes a truck carries: the heaviest road trucks here take ~60 т; «225» is a «22,5» typed into a number field. */
export const MAX_VEHICLE_CAPACITY = 60;
/** JSON bodies carry numbers as numbers: «"5"» or true are refused, not read as 5 or 1. */
const jsonCapacity = z
  .number({ message: 'ожидается число' })
  .positive('больше 0')
  .max(MAX_VEHICLE_CAPACITY, `не больше ${MAX_VEHICLE_CAPACITY} т — проверьте запятую`)
  .nullish();
const jsonVehicleFields = {
  vehicle_number: text().max(20).nullish(),
  vehicle_brand: text().max(100).nullish(),
  vehicle_capacity: jsonCapacity,
};
/**
 * A driver's licence (the waybill's `СерВУ` and `НомВУ`, migration 051): the series, 4 characters (2 digits and 2
 * digits, or 2 letters on old ones), stored «77 12»; the number, 6 digits. The number's field also takes the whole
 * «77 12 345678» (as the card took it before 051): then it sets the series too.
 */
const LICENSE = /^(\d{2})([\dА-ЯЁ]{2})(\d{6})$/;
const LICENSE_SERIES = /^(\d{2})([\dА-ЯЁ]{2})$/;
const LICENSE_MESSAGE = 'Номер удостоверения: ожидается 6 цифр, например 345678 (или серия и номер: 77 12 345678)';
const SERIES_MESSAGE = 'Серия удостоверения: ожидается 4 знака — 2 цифры и 2 цифры или буквы, например 77 12';

/** The licence's fields as stored: the number, and the series when the text gave it. */
export interface LicenceParts {
  series?: string;
  number: string;
}

/**
 * A driver's card beyond the account (issue 31): the current vehicle of the company's fleet, the licence and the ИНН, each
 * null to clear, absent to leave.
 */
const driverCardFields = {
  vehicle_id: z.number({ message: 'Машина: ожидается номер машины из парка' }).int('Машина: ожидается номер машины из парка').positive('Машина: ожидается номер машины из парка').nullish(),
  license_series: z
    .string({ message: SERIES_MESSAGE })
    .transform((s, ctx) => {
      const compact = s.replace(/[\s-]+/g, '').toUpperCase();
      if (compact === '') return null;
      const m = LICENSE_SERIES.exec(compact);
      if (!m) {
        ctx.addIssue({ code: 'custom', message: SERIES_MESSAGE });
        return z.NEVER;
      }
      return `${m[1]} ${m[2]}`;
    })
    .nullish(),
  license_number: z
    .string({ message: LICENSE_MESSAGE })
    .transform((s, ctx): LicenceParts | null => {
      const compact = s.replace(/[\s-]+/g, '').toUpperCase();
      if (compact === '') return null;
      if (/^\d{6}$/.test(compact)) return { number: compact };
      const m = LICENSE.exec(compact);
      if (!m) {
        ctx.addIssue({ code: 'custom', message: LICENSE_MESSAGE });
        return z.NEVER;
      }
      return { series: `${m[1]} ${m[2]}`, number: m[3] as string };
    })
    .nullish(),
  license_issued: isoDate
    .refine((d) => d >= '1950-01-01', 'Дата выдачи удостоверения: слишком ранняя')
    .refine((d) => new Date(`${d}T00:00:00Z`).getTime() <= Date.now() + 86_400_000, 'Дата выдачи удостоверения: ещё не наступила')
    .nullish(),
  /** The driver's ИНН (a person's: 12 digits, both check digits): the waybill's driver (issue 33). */
  inn: z.lazy(() => innField('ИНН водителя', 'fl')),
};

const companyRef = z.number({ message: 'ожидается номер компании' }).int().positive('ожидается номер компании');

export const registrationSchema = z.object({
  email,
  password,
  name,
  phone,
  // A number on the wire (JSON): «"1"» or true are refused, never read as company 1 (the form converts first).
  company_id: z.number({ message: 'Выберите компанию' }).int().positive('Выберите компанию'),
  // Public registration offers driver or manager; higher roles are created by a super-admin.
  role: z.enum(['driver', 'manager']).default('driver'),
  ...jsonVehicleFields,
});
export type RegistrationPayload = z.infer<typeof registrationSchema>;

export const profileUpdateSchema = z
  .object({
    name: name.optional(),
    phone: phone.optional(),
  })
  .strict();
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;


/** POST /users/drivers/: staff create an active driver at once (no approval). */
export const driverCreateSchema = z.object({
  email,
  password,
  name,
  phone,
  // A manager or admin creates drivers of their own company; a super-admin names the company.
  company_id: companyRef.nullish(),
  ...jsonVehicleFields,
  ...driverCardFields,
});
export type DriverCreate = z.infer<typeof driverCreateSchema>;

/** PUT /users/drivers/{id}/: only what is sent changes; vehicle fields edit the current vehicle (or add one). */
export const driverUpdateSchema = z
  .object({
    name: name.optional(),
    phone: phone.optional(),
    email: email.optional(),
    password: password.optional(),
    is_active: z.boolean({ message: 'ожидается true или false' }).optional(),
    ...jsonVehicleFields,
    ...driverCardFields,
  })
  .strict();
export type DriverUpdate = z.infer<typeof driverUpdateSchema>;

/** The roles a super-admin creates on /managers/manage. */
export const STAFF_ROLES = ['manager', 'admin'] as const;

/** POST /users/staff/ (super-admin): a manager or an admin of a company, active at once. */
export const staffCreateSchema = z.object({
  email,
  password,
  name,
  phone,
  role: z.enum(STAFF_ROLES, { message: 'ожидается manager или admin' }),
  company_id: companyRef,
});
export type StaffCreate = z.infer<typeof staffCreateSchema>;

/** PUT /users/{id}/ (super-admin): any user's fields, role, company, activity or password. */
export const userAdminUpdateSchema = z
  .object({
    name: name.optional(),
    phone: phone.optional(),
    email: email.optional(),
    password: password.optional(),
    role: z.enum(ROLES, { message: 'неизвестная роль' }).optional(),
    company_id: companyRef.nullable().optional(),
    is_active: z.boolean({ message: 'ожидается true или false' }).optional(),
  })
  .strict();
export type UserAdminUpdate = z.infer<typeof userAdminUpdateSchema>;

/** POST /companies/, PUT /companies/{id}. */
export const companySchema = z.object({ name: text().min(1, 'Укажите название').max(200) });

/** POST /companies/{id}/users/. */
// A JSON body: strict types (true or "5" are not user ids).
export const companyUserSchema = z.object({ user_id: z.number({ message: 'ожидается номер пользователя' }).int().positive() });

/**
 * Long fields are cut, not refused: a crash report is worth keeping even when its stack is huge; control
 * characters and bidi overrides are stripped likewise (contract/fields.ts).
 */
const capped = (max: number) => z.string().transform((s) => stripUnsafeChars(s).slice(0, max));
const position = z.number().int().min(0).max(1e9).nullish();

/** POST /log-client-error (uncaught errors of tabs and the worker). */
export const clientErrorSchema = z.object({
  message: z.string().transform((s) => stripUnsafeChars(s).slice(0, 2000) || '(без сообщения)'),
  stack: capped(8192).nullish(),
  source: capped(2000).nullish(),
  lineno: position,
  colno: position,
  userAgent: capped(500).nullish(),
  url: capped(2000).nullish(),
  time: capped(64).nullish(),
});
export type ClientErrorPayload = z.infer<typeof clientErrorSchema>;
