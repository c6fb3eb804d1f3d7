/**
 * The account form shared by /drivers/manage, /managers/manage and /users/manage: the fields as typed,
 * the checks made before sending (Russian, under each field), and the body each call takes — on edit only
 * what changed, so a stale copy never overwrites another admin's change to a field this one did not touch.
 */
import { MAX_VEHICLE_CAPACITY } from '../../../contract/payloads.ts';
import { innProblem } from '../../../contract/requisites.ts';
import type { Role } from '../../../contract/roles.ts';
import type { UserWire } from '../../../contract/entities.ts';
import { parseQuantity, quantityText } from '../../ui/decimal.ts';
import { placeDetail } from '../../ui/server-error.ts';

export interface AccountValues {
  name: string;
  email: string;
  phone: string;
  password: string;
  role: Role | '';
  company_id: string;
  vehicle_number: string;
  vehicle_brand: string;
  vehicle_capacity: string;
  /** A driver's current vehicle of the fleet (its id; '' none) and licence (issue 31). */
  vehicle_id: string;
  license_series: string;
  license_number: string;
  license_issued: string;
  /** The driver's ИНН (issue 33: the waybill's driver), as typed. */
  inn: string;
}

export type AccountField = keyof AccountValues;
export type AccountErrors = Partial<Record<AccountField, string>>;

/** Which parts of the form a screen shows. */
export interface AccountShape {
  /** The roles offered; none means the role is fixed and not shown. */
  roles?: readonly Role[];
  /** A company select (a super-admin's forms). */
  company?: boolean;
  /** The current vehicle typed in (drivers, before the fleet). */
  vehicle?: boolean;
  /** The current vehicle picked from the company's fleet, and the driver's licence (drivers). */
  fleet?: boolean;
}

export const FIELD_ORDER: readonly AccountField[] = [
  'name', 'email', 'phone', 'password', 'role', 'company_id', 'vehicle_number', 'vehicle_brand', 'vehicle_capacity', 'vehicle_id', 'license_series', 'license_number', 'license_issued', 'inn',
];

export const EMPTY_ACCOUNT: AccountValues = {
  name: '', email: '', phone: '', password: '', role: '', company_id: '', vehicle_number: '', vehicle_brand: '', vehicle_capacity: '',
  vehicle_id: '', license_series: '', license_number: '', license_issued: '', inn: '',
};

export function roleOf(user: Pick<UserWire, 'role'>): Role {
  return typeof user.role === 'string' ? user.role : user.role.name;
}

export function valuesOf(user: UserWire): AccountValues {
  const transport = user.current_transport;
  return {
    name: user.name,
    email: user.email,
    phone: user.phone,
    password: '',
    role: roleOf(user),
    company_id: user.company_id === null ? '' : String(user.company_id),
    vehicle_number: transport?.vehicle_number ?? '',
    vehicle_brand: transport?.vehicle_brand ?? '',
    vehicle_capacity: quantityText(transport?.vehicle_capacity),
    vehicle_id: user.vehicle_id ? String(user.vehicle_id) : '',
    license_series: user.license_series ?? '',
    license_number: user.license_number ?? '',
    license_issued: user.license_issued ?? '',
    inn: user.inn ?? '',
  };
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9 ()-]{5,20}$/;

/** What the form sends, field by field as the server's schemas take them; an edit sends only what changed. */
export interface AccountBody {
  name?: string;
  email?: string;
  phone?: string;
  password?: string;
  role?: Role;
  company_id?: number | null;
  vehicle_number?: string | null;
  vehicle_brand?: string | null;
  vehicle_capacity?: number | null;
  vehicle_id?: number | null;
  license_series?: string | null;
  license_number?: string | null;
  license_issued?: string | null;
  inn?: string | null;
}

/** A new account: the fields every account has, checked; the rest where the form has them. */
export interface NewAccount extends AccountBody {
  name: string;
  email: string;
  phone: string;
  password: string;
  company_id?: number;
}

export type AccountCheck<B> = { ok: true; body: B } | { ok: false; errors: AccountErrors };

const BODY_FIELDS = [
  'name', 'email', 'phone', 'password', 'role', 'company_id', 'vehicle_number', 'vehicle_brand', 'vehicle_capacity', 'vehicle_id', 'license_series', 'license_number', 'license_issued', 'inn',
] as const satisfies readonly (keyof AccountBody)[];

function copy<K extends keyof AccountBody>(to: AccountBody, from: AccountBody, key: K): void {
  to[key] = from[key];
}

/**
 * Checks the form and builds the body. `loaded` is the account being edited (null when creating): an edit
 * sends only changed fields and an empty password means "keep the old one".
 */
export function accountBody(values: AccountValues, shape: AccountShape, loaded: null): AccountCheck<NewAccount>;
export function accountBody(values: AccountValues, shape: AccountShape, loaded: AccountValues): AccountCheck<AccountBody>;
export function accountBody(values: AccountValues, shape: AccountShape, loaded: AccountValues | null): AccountCheck<AccountBody> {
  const errors: AccountErrors = {};
  const v = { ...values, name: values.name.trim(), email: values.email.trim(), phone: values.phone.trim() };
  if (!v.name) errors.name = 'Укажите имя';
  if (!EMAIL.test(v.email)) errors.email = 'Укажите e-mail вида name@example.ru';
  if (!PHONE.test(v.phone)) errors.phone = 'Укажите телефон: цифры, пробелы, скобки, дефисы (от 5 знаков)';
  if (loaded === null || v.password !== '') {
    if (v.password.length < 8) errors.password = loaded === null ? 'Пароль не короче 8 символов' : 'Новый пароль не короче 8 символов';
  }
  if (shape.roles && shape.roles.length > 0 && !v.role) errors.role = 'Выберите роль';
  const needsCompany = shape.company && v.role !== 'super-admin';
  if (needsCompany && !v.company_id) errors.company_id = 'Выберите компанию';
  let capacity: number | null = null;
  if (shape.vehicle) {
    const parsed = parseQuantity(v.vehicle_capacity);
    if (!parsed.ok) errors.vehicle_capacity = parsed.error;
    else if (parsed.value !== null && (parsed.value <= 0 || parsed.value > MAX_VEHICLE_CAPACITY)) {
      errors.vehicle_capacity = `От 0 до ${MAX_VEHICLE_CAPACITY} т — проверьте запятую`;
    } else capacity = parsed.value;
    if (!v.vehicle_number.trim() && (v.vehicle_brand.trim() || capacity !== null)) {
      errors.vehicle_number = 'Укажите госномер, чтобы сохранить транспорт';
    }
  }
  if (shape.fleet) {
    const inn = v.inn.replace(/\s+/g, '');
    const problem = inn === '' ? null : innProblem(inn, 'fl');
    if (problem) errors.inn = problem.replace(/^ИНН: (.)/, (_, first: string) => first.toUpperCase());
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };

  const full = normalized(v, shape, capacity);
  if (loaded === null) {
    // A new account without a vehicle sends none of its fields (the server would need a number for it).
    if (shape.vehicle && full.vehicle_number === null) {
      delete full.vehicle_number;
      delete full.vehicle_brand;
      delete full.vehicle_capacity;
    }
    const { company_id: companyId, ...rest } = full;
    // The password was checked above: a new account has one.
    const created: NewAccount = { ...rest, password: v.password, ...(companyId === null || companyId === undefined ? {} : { company_id: companyId }) };
    return { ok: true, body: created };
  }
  const loadedCapacity = parseQuantity(loaded.vehicle_capacity);
  const old = normalized(loaded, shape, loadedCapacity.ok ? loadedCapacity.value : null);
  const changed: AccountBody = {};
  for (const key of BODY_FIELDS) {
    if (key in full && (key === 'password' || old[key] !== full[key])) copy(changed, full, key);
  }
  if (shape.vehicle) {
    if (full.vehicle_number === null) {
      // Clearing the number does not remove a vehicle; the fields are left alone.
      delete changed.vehicle_number;
      delete changed.vehicle_brand;
      delete changed.vehicle_capacity;
    } else if ('vehicle_brand' in changed || 'vehicle_capacity' in changed) {
      // A driver without a vehicle gets one: the server needs its number with the other fields.
      changed.vehicle_number = full.vehicle_number;
    }
  }
  return { ok: true, body: changed };
}

/** The full body for `values`, trimmed, with the company as a number and the role only where the form has one. */
function normalized(values: AccountValues, shape: AccountShape, capacity: number | null): AccountBody & Pick<NewAccount, 'name' | 'email' | 'phone'> {
  const body: AccountBody & Pick<NewAccount, 'name' | 'email' | 'phone'> = {
    name: values.name.trim(),
    email: values.email.trim().toLowerCase(),
    phone: values.phone.trim(),
  };
  if (values.password) body.password = values.password;
  // An empty role is refused by the check above (an edit's loaded account always has one).
  if (shape.roles && shape.roles.length > 0 && values.role) body.role = values.role;
  if (shape.company) body.company_id = values.role === 'super-admin' || !values.company_id ? null : Number(values.company_id);
  if (shape.vehicle) {
    body.vehicle_number = values.vehicle_number.trim() || null;
    body.vehicle_brand = values.vehicle_brand.trim() || null;
    body.vehicle_capacity = capacity;
  }
  if (shape.fleet) {
    body.vehicle_id = values.vehicle_id ? Number(values.vehicle_id) : null;
    body.license_series = values.license_series.trim() || null;
    body.license_number = values.license_number.trim() || null;
    body.license_issued = values.license_issued || null;
    body.inn = values.inn.replace(/\s+/g, '') || null;
  }
  return body;
}

/** A server detail names its field first ('email: …', 'company_id: …'); the form shows it under that field. */
/** The Russian labels the driver card's refusals start with. */
const LABELLED: readonly [string, AccountField][] = [
  ['Машина: ', 'vehicle_id'],
  ['Водительское удостоверение: ', 'license_number'],
  ['Серия удостоверения: ', 'license_series'],
  ['Номер удостоверения: ', 'license_number'],
  ['Дата выдачи удостоверения: ', 'license_issued'],
  ['ИНН водителя: ', 'inn'],
];

export function accountServerError(detail: string): { field: AccountField | null; message: string } {
  const labelled = LABELLED.find(([label]) => detail.startsWith(label));
  if (labelled) return { field: labelled[1], message: detail.slice(labelled[0].length) };
  const placed = placeDetail(detail, FIELD_ORDER);
  return placed.field === null && /e-mail/i.test(detail) ? { field: 'email', message: detail } : placed;
}
