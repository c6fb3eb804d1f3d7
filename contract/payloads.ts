/**
 * Request payloads with their runtime schemas (zod). The server validates with them;
 * the worker and UI use the inferred types.
 */
import { z } from 'zod';

const email = z.string().trim().toLowerCase().pipe(z.email({ message: 'Некорректный e-mail' }));
const password = z.string().min(8, 'Пароль должен быть не короче 8 символов').max(200);
const name = z.string().trim().min(1, 'Укажите имя').max(200);
const phone = z
  .string()
  .trim()
  .regex(/^\+?[0-9 ()-]{5,20}$/, 'Некорректный телефон');

export const loginSchema = z.object({
  username: z.string().trim().min(1, 'Укажите e-mail').max(320),
  password: z.string().min(1, 'Укажите пароль').max(200),
  device_id: z.string().trim().min(1).max(100).optional(),
  device_info: z.string().max(500).nullish(),
  push_subscription: z.unknown().nullish(),
});
export type LoginPayload = z.infer<typeof loginSchema>;

export const refreshSchema = z.object({ refresh_token: z.string().min(1, 'Нет refresh_token') });

export const registrationSchema = z.object({
  email,
  password,
  name,
  phone,
  company_id: z.coerce.number().int().positive('Выберите компанию'),
  // Public registration offers driver or manager; higher roles are created by a super-admin.
  role: z.enum(['driver', 'manager']).default('driver'),
  vehicle_number: z.string().trim().max(20).nullish(),
  vehicle_brand: z.string().trim().max(100).nullish(),
  vehicle_capacity: z.coerce.number().positive().max(1000).nullish(),
});
export type RegistrationPayload = z.infer<typeof registrationSchema>;

export const profileUpdateSchema = z
  .object({
    name: name.optional(),
    phone: phone.optional(),
  })
  .strict();
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;
