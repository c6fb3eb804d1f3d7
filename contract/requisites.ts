/**
 * The requisites of an organisation as the tax service defines them, checked before they are stored: ИНН (10
 * digits for a legal entity, 12 for an individual entrepreneur or a private person, with their check digits),
 * КПП (legal entities only: 4 digits, 2 digits or capital Latin letters, 3 digits), ОГРН (13 digits, first 1 or 5)
 * and ОГРНИП (15 digits, first 3) with their check digit. Each check answers null or the Russian reason a person
 * reads, naming the field («ИНН: неверная контрольная цифра»); the schemas below carry the same reasons on the
 * field's path. Pure: the server refuses with them, the card's form says them before sending
 * (tests/contract/requisites.test.ts).
 */
import { z } from 'zod';
import { PHONE_PATTERN, text } from './fields.ts';

/** ЮЛ (юридическое лицо), ИП (индивидуальный предприниматель), физлицо. */
export const LEGAL_FORMS = ['ul', 'ip', 'fl'] as const;
export type LegalForm = (typeof LEGAL_FORMS)[number];
export const LEGAL_FORM_LABELS: Record<LegalForm, string> = { ul: 'ЮЛ', ip: 'ИП', fl: 'Физлицо' };
export const LEGAL_FORM_NAMES: Record<LegalForm, string> = {
  ul: 'Юридическое лицо',
  ip: 'Индивидуальный предприниматель',
  fl: 'Физическое лицо',
};

/** What a counterparty is to a task: заказчик, грузоотправитель, грузополучатель (any combination). */
export const COUNTERPARTY_ROLES = ['customer', 'shipper', 'consignee'] as const;
export type CounterpartyRole = (typeof COUNTERPARTY_ROLES)[number];
export const COUNTERPARTY_ROLE_LABELS: Record<CounterpartyRole, string> = {
  customer: 'Заказчик',
  shipper: 'Грузоотправитель',
  consignee: 'Грузополучатель',
};

/** The ИНН's length for a legal form: 10 for a legal entity, 12 for an entrepreneur or a person. */
export const INN_LENGTH: Record<LegalForm, 10 | 12> = { ul: 10, ip: 12, fl: 12 };

const INN10_WEIGHTS = [2, 4, 10, 3, 5, 9, 4, 6, 8];
const INN11_WEIGHTS = [7, 2, 4, 10, 3, 5, 9, 4, 6, 8];
const INN12_WEIGHTS = [3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8];

/** The check digit of the digits before it: the weighted sum modulo 11, then modulo 10. */
function innDigit(digits: string, weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i += 1) sum += Number(digits[i]) * (weights[i] ?? 0);
  return (sum % 11) % 10;
}

/** The ИНН's check digits for its leading digits (9 → one digit, 10 → two); a test computes valid numbers with it. */
export function innCheckDigits(leading: string): string {
  if (leading.length === 9) return String(innDigit(leading, INN10_WEIGHTS));
  const first = String(innDigit(leading, INN11_WEIGHTS));
  return first + String(innDigit(leading + first, INN12_WEIGHTS));
}

/** The remainder of a decimal number of any length, digit by digit (no BigInt, no precision lost). */
function remainder(digits: string, divisor: number): number {
  let rest = 0;
  for (const d of digits) rest = (rest * 10 + Number(d)) % divisor;
  return rest;
}

/** ОГРН's check digit for its 12 leading digits (mod 11), ОГРНИП's for its 14 (mod 13); the last digit of the remainder. */
export function ogrnCheckDigit(leading: string): string {
  return String(remainder(leading, leading.length === 14 ? 13 : 11) % 10);
}

/** null when the ИНН is right for the legal form (any of 10 or 12 digits when the form is not known). */
export function innProblem(inn: string, form?: LegalForm): string | null {
  const length = form ? INN_LENGTH[form] : inn.length === 12 ? 12 : 10;
  if (!new RegExp(`^\\d{${length}}$`).test(inn)) {
    return form ? `ИНН: должен состоять из ${length} цифр` : 'ИНН: должен состоять из 10 или 12 цифр';
  }
  const leading = inn.slice(0, length - (length === 10 ? 1 : 2));
  return innCheckDigits(leading) === inn.slice(leading.length) ? null : 'ИНН: неверная контрольная цифра';
}

export const KPP_PATTERN = /^\d{4}[\dA-Z]{2}\d{3}$/;

/** null when the КПП has its shape: 4 digits (the tax office), 2 digits or capital Latin letters (the reason), 3 digits. */
export function kppProblem(kpp: string): string | null {
  return KPP_PATTERN.test(kpp) ? null : 'КПП: должен состоять из 9 знаков — 4 цифры, 2 цифры или заглавные латинские буквы, 3 цифры';
}

/**
 * null when the registration number is right for the legal form: a legal entity's ОГРН (13 digits, first 1 or 5),
 * an entrepreneur's ОГРНИП (15 digits, first 3); without the form, either by its length.
 */
export function ogrnProblem(ogrn: string, form?: 'ul' | 'ip'): string | null {
  const entrepreneur = form ? form === 'ip' : ogrn.length === 15;
  const label = entrepreneur ? 'ОГРНИП' : 'ОГРН';
  const length = entrepreneur ? 15 : 13;
  if (!new RegExp(`^\\d{${length}}$`).test(ogrn)) {
    return form ? `${label}: должен состоять из ${length} цифр` : 'ОГРН: должен состоять из 13 цифр (ОГРНИП — из 15)';
  }
  if (entrepreneur ? ogrn[0] !== '3' : ogrn[0] !== '1' && ogrn[0] !== '5') {
    return entrepreneur ? 'ОГРНИП: должен начинаться с 3' : 'ОГРН: должен начинаться с 1 или 5';
  }
  return ogrnCheckDigit(ogrn.slice(0, -1)) === ogrn.slice(-1) ? null : `${label}: неверная контрольная цифра`;
}

/**
 * An optional ИНН of a card's field (the driver's, a lessor's): spaces dropped, empty is null, else checked by
 * `innProblem` for the form (12 digits and both check digits for a person) and refused naming the field:
 * «ИНН водителя: неверная контрольная цифра».
 */
export const innField = (label: string, form?: LegalForm) =>
  z
    .string({ message: `${label}: ожидается текст` })
    .transform((s, ctx) => {
      const inn = s.replace(/\s+/g, '');
      if (inn === '') return null;
      const problem = innProblem(inn, form);
      if (problem) {
        ctx.addIssue({ code: 'custom', message: problem.replace(/^ИНН/, label) });
        return z.NEVER;
      }
      return inn;
    })
    .nullish();

/** Spaces people paste inside a number («7707 083 893») are not part of it. */
const compact = (s: string) => s.replace(/\s+/g, '');

/**
 * An optional typed field: empty text is null (a cleared field), anything else its trimmed text; absent stays
 * undefined (a partial update leaves it as it is).
 */
const optionalText = (label: string, max: number) =>
  text(`${label}: ожидается текст`)
    .max(max, `${label}: не длиннее ${max} символов`)
    .transform((s) => (s === '' ? null : s))
    .nullish();

/** A requisite number: spaces dropped, empty is null; its checks are the object's (they need the legal form). */
const requisiteNumber = (label: string) =>
  z
    .string({ message: `${label}: ожидается текст` })
    .transform((s) => compact(s).toUpperCase())
    .transform((s) => (s === '' ? null : s))
    .nullish();

const optionalPhone = z
  .string({ message: 'Телефон: ожидается текст' })
  .trim()
  .refine((s) => s === '' || PHONE_PATTERN.test(s), 'Телефон: некорректный номер')
  .transform((s) => (s === '' ? null : s))
  .nullish();

/** A whole card's field: absent is the same as cleared. */
const cardField = <T>(schema: z.ZodType<T | null | undefined>) => schema.transform((v) => v ?? null);

type Requisites = { inn?: string | null; kpp?: string | null; ogrn?: string | null };

/** Adds the reasons of the numbers for a legal form: the ИНН's length and digits, КПП only for ЮЛ, ОГРН / ОГРНИП. */
function checkNumbers(value: Requisites, form: LegalForm | undefined, ctx: z.RefinementCtx, innRequired: boolean) {
  const add = (path: keyof Requisites, message: string | null) => {
    if (message) ctx.addIssue({ code: 'custom', path: [path], message });
  };
  if (value.inn == null) {
    if (innRequired) add('inn', 'ИНН: обязательное поле');
  } else add('inn', innProblem(value.inn, form));
  if (value.kpp != null) add('kpp', form && form !== 'ul' ? 'КПП: бывает только у юридического лица' : kppProblem(value.kpp));
  if (value.ogrn != null) {
    add('ogrn', form === 'fl' ? 'ОГРН: у физического лица его нет' : ogrnProblem(value.ogrn, form));
  }
}

/** POST /counterparties/, PUT /counterparties/{id}: the whole card. */
export const counterpartySchema = z
  .object({
    legal_form: z.enum(LEGAL_FORMS, { message: 'Форма: ожидается ЮЛ (ul), ИП (ip) или физлицо (fl)' }),
    name: text('Название: ожидается текст').min(1, 'Название: обязательное поле').max(200, 'Название: не длиннее 200 символов'),
    full_name: cardField(optionalText('Полное наименование', 500)),
    inn: cardField(requisiteNumber('ИНН')),
    kpp: cardField(requisiteNumber('КПП')),
    ogrn: cardField(requisiteNumber('ОГРН')),
    roles: z
      .array(z.enum(COUNTERPARTY_ROLES, { message: 'Роли: ожидается customer, shipper или consignee' }), { message: 'Роли: ожидается список' })
      .min(1, 'Роли: укажите хотя бы одну — заказчик, грузоотправитель или грузополучатель')
      // Each role once, in the list's own order, whatever order and repeats were sent.
      .transform((roles) => COUNTERPARTY_ROLES.filter((r) => roles.includes(r))),
    address: cardField(optionalText('Юридический адрес', 500)),
    contact_name: cardField(optionalText('Контактное лицо', 200)),
    phone: cardField(optionalPhone),
    edo_id: cardField(optionalText('Идентификатор ЭДО', 100)),
    note: cardField(optionalText('Примечание', 2000)),
  })
  .strict()
  // A private person's ИНН may be unknown to the carrier; an organisation's or an entrepreneur's is always asked.
  .superRefine((value, ctx) => checkNumbers(value, value.legal_form, ctx, value.legal_form !== 'fl'));
export type CounterpartyPayload = z.infer<typeof counterpartySchema>;

/**
 * The carrier's own requisites on its company (PUT /companies/{id}), each optional: a company may have none yet.
 * The carrier is a legal entity or an entrepreneur, told apart by the ИНН's length: 10 digits (ЮЛ: КПП, ОГРН of
 * 13) or 12 (ИП: no КПП, ОГРНИП of 15).
 */
export const companyRequisitesFields = {
  full_name: optionalText('Полное наименование', 500),
  inn: requisiteNumber('ИНН'),
  kpp: requisiteNumber('КПП'),
  ogrn: requisiteNumber('ОГРН'),
  address: optionalText('Юридический адрес', 500),
  phone: optionalPhone,
  /** The carrier's participant id at its ЭДО operator (goes into every ЭТрН file's name; docs/documents.md). */
  edo_id: optionalText('Идентификатор ЭДО', 100),
};

/** The cross-field rule of the carrier's requisites, for a schema that spreads `companyRequisitesFields`. */
export function checkCompanyRequisites(value: Requisites, ctx: z.RefinementCtx): void {
  const form = value.inn?.length === 12 ? 'ip' : value.inn?.length === 10 ? 'ul' : undefined;
  checkNumbers(value, form, ctx, false);
}

export const companyRequisitesSchema = z.object(companyRequisitesFields).strict().superRefine(checkCompanyRequisites);
export type CompanyRequisites = z.infer<typeof companyRequisitesSchema>;
